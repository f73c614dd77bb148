package workbench

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// isTerminal reports whether w is a character device (a terminal), without
// a dependency: a pipe, a file or a test buffer is not.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress draws a bar on stderr for runs that last more than about a
// second, and only when stderr is a terminal; otherwise it does nothing, so
// piped, --json and --csv output stay clean.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	start time.Time
	last  time.Time
	drawn bool
	label string
	hook  func(done, total int64)
}

func newProgress(e *env, label string) *progress {
	return &progress{w: e.stderr, on: e.terminal, start: time.Now(), label: label, hook: e.onProgress}
}

// update is a sim.Options.Progress callback.
func (p *progress) update(done, total int64) {
	if p.hook != nil {
		p.hook(done, total)
	}
	if !p.on || total <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 100*time.Millisecond && done < total {
		return
	}
	p.last = now
	const width = 30
	n := int(float64(width) * float64(done) / float64(total))
	fmt.Fprintf(p.w, "\r%s [%s%s] %3.0f%%", p.label, strings.Repeat("#", n), strings.Repeat(".", width-n),
		100*float64(done)/float64(total))
	p.drawn = true
}

// finish clears the bar.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", len(p.label)+40))
		p.drawn = false
	}
}
