package search

import (
	"context"
	"sync"
	"time"
)

// Loader builds a fresh index, from DynamoDB in the functions.
type Loader func(ctx context.Context) (*Index, error)

// Provider holds the current index: built on first use, then rebuilt in the background
// once it is older than maxAge, so a catalogue change shows in search within maxAge and
// no search waits for a rebuild.
type Provider struct {
	load   Loader
	maxAge time.Duration
	now    func() time.Time

	mu         sync.Mutex
	ix         *Index
	built      time.Time
	refreshing bool
	first      chan struct{} // closed once the first build ends (either way)
	firstErr   error
}

// NewProvider makes a provider; nothing is loaded until the first Get (or Warm).
func NewProvider(load Loader, maxAge time.Duration) *Provider {
	return &Provider{load: load, maxAge: maxAge, now: time.Now}
}

// Warm starts the first build in the background, so a cold start does not make the
// first buyer wait.
func (p *Provider) Warm() { go func() { _, _ = p.Get(context.Background()) }() }

// Get answers the current index, building it if there is none yet.
func (p *Provider) Get(ctx context.Context) (*Index, error) {
	p.mu.Lock()
	if p.ix != nil {
		if p.now().Sub(p.built) > p.maxAge && !p.refreshing {
			p.refreshing = true
			go p.refresh()
		}
		ix := p.ix
		p.mu.Unlock()
		return ix, nil
	}
	first := p.first
	if first == nil {
		p.first = make(chan struct{})
		first = p.first
		go p.buildFirst()
	}
	p.mu.Unlock()
	select {
	case <-first:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ix == nil {
		err := p.firstErr
		p.first = nil // let the next request try again
		return nil, err
	}
	return p.ix, nil
}

func (p *Provider) buildFirst() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ix, err := p.load(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err == nil {
		p.ix, p.built = ix, p.now()
	}
	p.firstErr = err
	close(p.first)
}

func (p *Provider) refresh() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ix, err := p.load(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refreshing = false
	if err == nil {
		p.ix, p.built = ix, p.now()
	}
}
