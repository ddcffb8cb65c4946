package sleep

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestForEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- For(ctx, time.Hour) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("For after cancel = %v, want context.Canceled", err)
	}
}

func TestForWaitsOutTheDelay(t *testing.T) {
	const d = 20 * time.Millisecond
	start := time.Now()
	if err := For(context.Background(), d); err != nil {
		t.Fatalf("For(live ctx) = %v, want nil", err)
	}
	// a lower bound only: a loaded machine makes it later, never earlier
	if got := time.Since(start); got < d {
		t.Fatalf("For returned after %v, before its %v", got, d)
	}
}

func TestForWithNoDelay(t *testing.T) {
	if err := For(context.Background(), 0); err != nil {
		t.Fatalf("For(live ctx, 0) = %v, want nil", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := For(ctx, -time.Second); !errors.Is(err, context.Canceled) {
		t.Fatalf("For(ended ctx, <0) = %v, want context.Canceled", err)
	}
}
