package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// loadRequest is one request of the load test: the words of a command,
// and how long the client waits before it gives up (0: as long as it
// takes).
type loadRequest struct {
	args    []string
	cancel  time.Duration
	hostile bool
}

// loadMix is what many designers' pages, and other people's servers
// embedding the handler, ask at once: dice odds, exact odds after a house
// rule, simulations, best play and narrated games, some abandoned part way
// and some hostile.
func loadMix() []loadRequest {
	huge := strings.Repeat("d6+", 20000) + "1"
	return []loadRequest{
		{args: []string{"odds", "4d6kh3"}},
		{args: []string{"odds", "3d6!", "vs", "2d10"}},
		{args: []string{"odds", "edge", "--set", "rules.start_edge=6"}},
		{args: []string{"odds", "contest", "d10 d8 d6", "vs", "d8 d8"}},
		{args: []string{"sim", "contest", "--trials", "20000", "--workers", "1"}},
		{args: []string{"sim", "challenge", "--trials", "20000", "--workers", "1"}},
		{args: []string{"solve", "actiontest"}},
		{args: []string{"play", "edge", "--games", "2"}},
		{args: []string{"sim", "edge", "--trials", "1000000000"}, cancel: 150 * time.Millisecond},
		{args: []string{"odds", "edge", "--set", "rules.start_edge=40"}, cancel: 150 * time.Millisecond},
		{args: []string{"odds", huge}, hostile: true},
		{args: []string{"sim", "edge", "--set", "rules.start_edge=-5"}, hostile: true},
		{args: []string{"sim", "nosuch"}, hostile: true},
		{args: []string{"merge", "/etc/passwd"}, hostile: true},
		{args: []string{"sim", "edge", "--file", "/etc/passwd"}, hostile: true},
		{args: []string{"sim", "edge", "--trials", "99999999999999999999"}, hostile: true},
	}
}

// TestPageUnderLoad sends many concurrent requests of mixed size to the
// page's handler, some cancelled and some hostile: every one is answered
// or refused (a cancelled one within a second of its cancel), no request
// takes the server down, and the memory the process holds stays bounded.
// Under the race detector (CI runs it) it also checks the requests share
// nothing unsafely.
func TestPageUnderLoad(t *testing.T) {
	srv := httptest.NewServer(Handler(testMechanics...))
	defer srv.Close()
	mix := loadMix()
	rounds := 4
	if testing.Short() {
		rounds = 2
	}
	var wg sync.WaitGroup
	errs := make(chan error, rounds*len(mix))
	sem := make(chan struct{}, 8)
	for range rounds {
		for _, req := range mix {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				if err := loadOne(srv.URL, req); err != nil {
					errs <- fmt.Errorf("%.60q: %w", req.args, err)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > 1<<30 {
		t.Errorf("the heap holds %d MiB after the load", ms.HeapInuse>>20)
	}
}

// loadOne sends one request and checks its answer.
func loadOne(base string, req loadRequest) error {
	ctx := context.Background()
	if req.cancel > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.cancel)
		defer cancel()
	}
	start := time.Now()
	hr, err := http.NewRequestWithContext(ctx, "GET", base+runURL(req.args...), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(hr)
	if req.cancel > 0 {
		if errors.Is(err, context.DeadlineExceeded) || err == nil {
			if err == nil {
				resp.Body.Close()
			}
			if late := time.Since(start) - req.cancel; late > time.Second {
				return fmt.Errorf("a cancelled request came back %v after its cancel", late)
			}
			return nil
		}
		return err
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRunOutput))
	if err != nil {
		return err
	}
	var a runAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return fmt.Errorf("status %d, not an answer: %.200s", resp.StatusCode, body)
	}
	switch {
	case req.hostile && (a.Error == "" || resp.StatusCode == http.StatusOK):
		return fmt.Errorf("a hostile request was answered: %d %.200s", resp.StatusCode, body)
	case !req.hostile && (a.Error != "" || resp.StatusCode != http.StatusOK):
		return fmt.Errorf("refused: %d %s", resp.StatusCode, a.Error)
	case len(a.Error) > 500:
		return fmt.Errorf("an error of %d bytes", len(a.Error))
	}
	return nil
}
