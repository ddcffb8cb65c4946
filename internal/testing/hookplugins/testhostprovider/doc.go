// Command testhostprovider owns a real host provider process for pkg/plugin's
// tests, behaving by each call's args.mode. It must not be built or run
// outside tests.
//
// It reads one host.call JSON line at a time on stdin and answers each on
// stdout.
package main
