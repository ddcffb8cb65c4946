// Package unwritable owns the tests' one way of making a directory in
// which nothing can be created ([Dir]): a read-only mode, or for root
// (whom a mode does not stop) Linux's immutable attribute, undone when
// the test ends. It stands for a full disk or a read-only mount in tests that
// must see a write fail. It must not be imported outside tests.
package unwritable
