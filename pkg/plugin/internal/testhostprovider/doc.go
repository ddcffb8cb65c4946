// Command testhostprovider owns a real host provider process for pkg/plugin's
// tests, behaving by each call's args.mode. It must not be built or run
// outside tests.
//
// In full, it is a real host provider process for
// pkg/plugin's tests: it reads one host.call JSON line at a time on stdin
// and answers on stdout, its behaviour chosen by the call's args.mode.
package main
