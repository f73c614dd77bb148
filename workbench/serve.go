package workbench

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stakesrpg/stakes/sim"
)

// The workbench page: "stakes serve" serves it on the loopback interface,
// in the manner of go tool pprof -http, and Handler offers it to a Go
// program's own server. The page asks the same commands the command line
// runs (through /api/run, with --json), so its numbers are the command
// line's, bounded by the same limits and stopped when the page stops them.

//go:embed web
var webFiles embed.FS

var pageTemplate = template.Must(template.ParseFS(webFiles, "web/index.html"))

// Limits of one request to the page's API.
const (
	maxRunArgs   = 200       // words of one command line
	maxArgBytes  = 64 << 10  // bytes of one word
	maxRunOutput = 256 << 20 // bytes one command may answer with
)

// pageCommands are the commands the page may run: none of them reads or
// writes a file.
var pageCommands = []string{"roll", "odds", "sim", "compare", "sweep", "solve", "play"}

// pageRefusedFlags write files or read them, which a page must not make a
// server do.
var pageRefusedFlags = []string{"--plot", "--file", "--html", "--shard"}

func cmdServe(e *env, args []string) error {
	var addr string
	var noOpen bool
	fs := newFlags(e, "serve", "[--addr HOST:PORT] [--no-open]",
		"Serves the workbench, a local web page: dice odds, a mechanic's study with its settings\n"+
			"as a form, simulations with live progress, comparisons, sweeps, best play and narrated\n"+
			"sample games, each exportable. It listens on 127.0.0.1 on a free port unless --addr\n"+
			"says otherwise, prints the address and opens the browser (unless --no-open).\n"+
			"Everything the page shows is in its address, so a view can be bookmarked or sent.\n"+
			"Requests from a page whose address names another host are refused. Ctrl-C stops it.",
		`stakes serve`, `stakes serve --addr 127.0.0.1:8080 --no-open`)
	fs.StringVar(&addr, "addr", "127.0.0.1:0", "listen on `HOST:PORT` (port 0: a free one)")
	fs.BoolVar(&noOpen, "no-open", false, "do not open a browser")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("serve: takes no arguments (got %q)", clip(pos[0]))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usagef("serve: --addr %s: %v", clip(addr), err)
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(e.stdout, "stakes serve: the workbench is at %s (Ctrl-C stops it)\n", url)
	if !noOpen {
		openBrowser(url)
	}
	srv := &http.Server{Handler: Handler(e.mechs...), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return e.ctx }}
	go func() {
		<-e.ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return e.ctx.Err()
}

// openBrowser asks the desktop to open url, where it knows how; a machine
// without one (a server, CI) just gets the printed address.
func openBrowser(url string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if cmd.Start() == nil {
		go func() { _ = cmd.Wait() }()
	}
}

// Handler returns the workbench page and its API over mechs, for a Go
// program that serves it itself. It answers only requests whose Host is
// an IP address or localhost (a page on another name that resolves here,
// DNS rebinding, is refused); every request runs with its own context, so
// closing the tab or pressing Stop ends its work.
func Handler(mechs ...Mechanic) http.Handler {
	s := &server{mechs: mechs}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	static, _ := fs.Sub(webFiles, "web")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /api/mechanics", s.mechanics)
	mux.HandleFunc("GET /api/run", s.run)
	mux.HandleFunc("GET /api/stop", s.stop)
	return hostCheck(mux)
}

type server struct {
	mechs []Mechanic
	mu    sync.Mutex
	runs  map[string]context.CancelFunc // streamed runs the page may stop, by its id
}

// maxRunID bounds the id a page gives a run it may want to stop.
const maxRunID = 64

// stop ends the streamed run the page named, which then answers with what
// it finished, marked partial.
func (s *server) stop(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	s.mu.Lock()
	cancel, ok := s.runs[id]
	s.mu.Unlock()
	if ok {
		cancel()
	}
	writeAPI(w, http.StatusOK, map[string]bool{"stopped": ok})
}

// track registers a streamed run under the page's id, for stop.
func (s *server) track(ctx context.Context, id string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	if id == "" || len(id) > maxRunID {
		return ctx, cancel
	}
	s.mu.Lock()
	if s.runs == nil {
		s.runs = map[string]context.CancelFunc{}
	}
	s.runs[id] = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		delete(s.runs, id)
		s.mu.Unlock()
		cancel()
	}
}

// hostCheck refuses requests whose Host names a host other than an IP
// address or localhost.
func hostCheck(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		host = strings.Trim(host, "[]")
		if host != "localhost" && net.ParseIP(host) == nil {
			http.Error(w, "stakes serve answers only requests addressed to an IP address or localhost", http.StatusForbidden)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; connect-src 'self' blob:; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'")
		next.ServeHTTP(w, r)
	})
}

func (s *server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pageTemplate.Execute(w, map[string]any{"Mechanics": mechanicNames(s.mechs)})
}

// mechanicInfo is what the page's forms show of a mechanic: its own
// description, and every setting of its built-in scenario with its value
// and meaning.
type mechanicInfo struct {
	Name       string        `json:"name"`
	Summary    string        `json:"summary"`
	Title      string        `json:"title"`
	Categories []string      `json:"categories"`
	Metrics    []string      `json:"metrics"`
	Terms      []termInfo    `json:"terms"`
	Settings   []settingInfo `json:"settings"`
	Solver     bool          `json:"solver"`
}

type termInfo struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

type settingInfo struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Doc   string `json:"doc"`
}

func (s *server) mechanics(w http.ResponseWriter, r *http.Request) {
	var out []mechanicInfo
	for _, m := range s.mechs {
		sc := m.New()
		d := sc.Describe()
		info := mechanicInfo{Name: m.Name, Summary: d.Summary, Title: d.Title,
			Categories: sc.Categories(), Metrics: sc.Metrics()}
		for _, n := range append(sc.Categories(), sc.Metrics()...) {
			text, _ := explain(d.Terms, n)
			info.Terms = append(info.Terms, termInfo{n, text})
		}
		for _, st := range settingsOf(sc.Scenario(), d.Docs) {
			info.Settings = append(info.Settings, settingInfo{st.path, st.value, st.doc})
		}
		_, info.Solver = sc.Scenario().(sim.Solver)
		out = append(out, info)
	}
	writeAPI(w, http.StatusOK, out)
}

// runAnswer is what /api/run answers: the command line it ran and its
// --json output, or the error in the command line's words and the flag
// it is about, for the page to show beside that field.
type runAnswer struct {
	Command string          `json:"command"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   string          `json:"error,omitempty"`
	Flag    string          `json:"flag,omitempty"`
	// Progress, in a streamed answer's lines before the last: trials done
	// of the total.
	Done  int64 `json:"done,omitempty"`
	Total int64 `json:"total,omitempty"`
}

// run runs one command (the words in the query's "a" values) with --json
// and answers its output. With stream=1 it answers a line of JSON for the
// progress of a long run every tenth of a second, then the answer.
func (s *server) run(w http.ResponseWriter, r *http.Request) {
	args := r.URL.Query()["a"]
	command := "stakes " + strings.Join(quoteArgs(args), " ")
	if err := checkPageArgs(args); err != nil {
		writeAPI(w, http.StatusBadRequest, runAnswer{Command: command, Error: err.Error(), Flag: flagOf(err.Error())})
		return
	}
	stream := r.URL.Query().Get("stream") == "1"
	var out lockedBuffer
	e := &env{ctx: r.Context(), stdout: &out, stderr: &lockedBuffer{}, mechs: s.mechs}
	if !stream {
		err := runCommand(e, append(slices.Clone(args), "--json"))
		writeRun(w, command, &out, err, r.Context())
		return
	}
	ctx, done := s.track(r.Context(), r.URL.Query().Get("id"))
	defer done()
	e.ctx = ctx
	w.Header().Set("Content-Type", "application/x-ndjson")
	lines := &ndjson{w: w}
	e.onProgress = func(done, total int64) {
		lines.send(runAnswer{Command: command, Done: done, Total: total})
	}
	err := runCommand(e, append(slices.Clone(args), "--json"))
	lines.send(answerOf(command, &out, err, ctx))
}

// checkPageArgs refuses a command the page may not run.
func checkPageArgs(args []string) error {
	if len(args) == 0 || !slices.Contains(pageCommands, args[0]) {
		return usagef("the page runs only %s", strings.Join(pageCommands, ", "))
	}
	if len(args) > maxRunArgs {
		return usagef("at most %d words in one command", maxRunArgs)
	}
	for _, a := range args {
		if len(a) > maxArgBytes {
			return usagef("a word of %d bytes; at most %d", len(a), maxArgBytes)
		}
		name, _, _ := strings.Cut(a, "=")
		if slices.Contains(pageRefusedFlags, name) || slices.Contains(pageRefusedFlags, "-"+name) {
			return usagef("%s: the page neither reads nor writes files on the server", name)
		}
	}
	return nil
}

// answerOf turns a command's output or error into the page's answer. A
// run stopped part way still has its JSON (marked partial): the page shows
// it with the reason.
func answerOf(command string, out *lockedBuffer, err error, ctx context.Context) runAnswer {
	b := bytes.TrimSpace(out.Bytes())
	switch {
	case len(b) > maxRunOutput:
		return runAnswer{Command: command, Error: "the answer is too large to show; narrow the question"}
	case err == nil || errors.Is(err, errHelp):
		return runAnswer{Command: command, Result: json.RawMessage(b)}
	case ctx.Err() != nil && len(b) > 0 && json.Valid(b):
		return runAnswer{Command: command, Result: json.RawMessage(b), Error: "stopped: what is shown is partial"}
	case ctx.Err() != nil:
		return runAnswer{Command: command, Error: "stopped"}
	case len(b) > 0 && json.Valid(b):
		return runAnswer{Command: command, Result: json.RawMessage(b), Error: oneLine(err.Error())}
	}
	msg := oneLine(err.Error())
	return runAnswer{Command: command, Error: msg, Flag: flagOf(msg)}
}

func writeRun(w http.ResponseWriter, command string, out *lockedBuffer, err error, ctx context.Context) {
	a := answerOf(command, out, err, ctx)
	status := http.StatusOK
	switch {
	case a.Error != "" && a.Result == nil && errors.As(err, new(usageError)):
		status = http.StatusBadRequest
	case a.Error != "" && a.Result == nil:
		status = http.StatusUnprocessableEntity
	}
	writeAPI(w, status, a)
}

// flagOf returns the flag an error message is about ("--set"), or "" when
// it names none, so the page can show the error beside that field.
func flagOf(msg string) string {
	for _, f := range []string{"--set", "--axis", "--trials", "--seed", "--workers", "--goal", "--side",
		"--a", "--b", "--games", "--times", "--precision", "--outcomes"} {
		if strings.Contains(msg, f+" ") || strings.Contains(msg, f+":") || strings.Contains(msg, f+"=") {
			return f
		}
	}
	return ""
}

// quoteArgs quotes the words of a command line that a shell would split.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'$`\\|&;<>()*?[]{}#~!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return out
}

func writeAPI(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// ndjson writes one JSON value a line, flushing each, no more than one
// progress line a tenth of a second.
type ndjson struct {
	mu   sync.Mutex
	w    http.ResponseWriter
	last time.Time
}

func (n *ndjson) send(a runAnswer) {
	n.mu.Lock()
	defer n.mu.Unlock()
	progress := a.Result == nil && a.Error == ""
	if progress && time.Since(n.last) < 100*time.Millisecond {
		return
	}
	n.last = time.Now()
	_ = json.NewEncoder(n.w).Encode(a)
	if f, ok := n.w.(http.Flusher); ok {
		f.Flush()
	}
}

// lockedBuffer is a bytes.Buffer safe for the command and the progress
// callbacks of its workers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len()+len(p) > maxRunOutput+1 {
		return 0, errors.New("output too large")
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Bytes()
}
