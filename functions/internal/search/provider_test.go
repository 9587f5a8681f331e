package search

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestProviderBuildsOnceThenRefreshesInBackground(t *testing.T) {
	t.Parallel()
	var loads atomic.Int32
	ix := &Index{}
	p := NewProvider(func(context.Context) (*Index, error) {
		loads.Add(1)
		time.Sleep(20 * time.Millisecond)
		return ix, nil
	}, time.Hour)
	now := time.Unix(1000, 0)
	var mu sync.Mutex
	p.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }

	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if got, err := p.Get(context.Background()); err != nil || got != ix {
				t.Error(got, err)
			}
		})
	}
	wg.Wait()
	if n := loads.Load(); n != 1 {
		t.Fatalf("20 concurrent first searches built %d indexes, want 1", n)
	}
	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()
	if got, _ := p.Get(context.Background()); got != ix {
		t.Fatal("a stale index must still be served while it rebuilds")
	}
	deadline := time.Now().Add(time.Second)
	for loads.Load() != 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if loads.Load() != 2 {
		t.Fatalf("stale index not rebuilt: %d loads", loads.Load())
	}
}

func TestProviderRetriesAfterAFailedFirstBuild(t *testing.T) {
	t.Parallel()
	fail := true
	var mu sync.Mutex
	p := NewProvider(func(context.Context) (*Index, error) {
		mu.Lock()
		defer mu.Unlock()
		if fail {
			fail = false
			return nil, errors.New("table unavailable")
		}
		return &Index{}, nil
	}, time.Hour)
	if _, err := p.Get(context.Background()); err == nil {
		t.Fatal("want the load error")
	}
	if ix, err := p.Get(context.Background()); err != nil || ix == nil {
		t.Fatalf("second try: %v %v", ix, err)
	}
}
