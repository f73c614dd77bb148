package workbench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// get asks the handler for path with the given Host and returns the
// status and body.
func get(t *testing.T, h http.Handler, host, path string) (int, []byte) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	req.Host = host
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

func runURL(args ...string) string {
	q := url.Values{"a": args}
	return "/api/run?" + q.Encode()
}

// TestServeRefusesOtherHosts: a page whose address names another host (a
// DNS rebinding attack) gets nothing; loopback addresses and localhost do.
func TestServeRefusesOtherHosts(t *testing.T) {
	h := Handler(coin)
	for host, want := range map[string]int{
		"127.0.0.1:8080": 200, "localhost:8080": 200, "[::1]:9": 200, "localhost": 200,
		"evil.example:8080": 403, "attacker.test": 403, "127.0.0.1.nip.io:80": 403,
	} {
		if code, _ := get(t, h, host, "/"); code != want {
			t.Errorf("Host %s: status %d, want %d", host, code, want)
		}
	}
}

// TestServePageAndMechanics: the page names every mechanic, and the
// mechanics API carries each one's own description and settings.
func TestServePageAndMechanics(t *testing.T) {
	h := Handler(coin)
	code, page := get(t, h, "127.0.0.1:1", "/")
	if code != 200 || !bytes.Contains(page, []byte(`<option value="coin">coin</option>`)) {
		t.Fatalf("page: %d\n%s", code, page)
	}
	for _, asset := range []string{"/static/app.js", "/static/style.css"} {
		if code, body := get(t, h, "127.0.0.1:1", asset); code != 200 || len(body) < 100 {
			t.Errorf("%s: %d, %d bytes", asset, code, len(body))
		}
	}
	code, body := get(t, h, "127.0.0.1:1", "/api/mechanics")
	var ms []mechanicInfo
	if err := json.Unmarshal(body, &ms); code != 200 || err != nil || len(ms) != 1 {
		t.Fatalf("mechanics: %d %v %s", code, err, body)
	}
	m := ms[0]
	if m.Summary == "" || m.Title != "race to 1 heads on d2" || !m.Solver || len(m.Settings) < 5 {
		t.Errorf("coin described as %+v", m)
	}
	if m.Terms[0].Name != "a_wins" || m.Terms[0].Text != "side a reached the target first" {
		t.Errorf("terms %+v", m.Terms)
	}
}

// TestServeRunAnswersAsTheCommandLine: the page's answer is the command
// line's --json output, and a designer's mistake comes back in the
// command line's words with the flag it is about.
func TestServeRunAnswersAsTheCommandLine(t *testing.T) {
	h := Handler(coin)
	code, body := get(t, h, "127.0.0.1:1", runURL("sim", "coin", "--trials", "3000", "--seed", "4", "--no-time"))
	var a runAnswer
	if err := json.Unmarshal(body, &a); code != 200 || err != nil || a.Error != "" {
		t.Fatalf("sim: %d %v %s", code, err, body)
	}
	var cli bytes.Buffer
	if rc := Run(context.Background(), []string{"sim", "coin", "--trials", "3000", "--seed", "4", "--no-time", "--json"}, &cli, &bytes.Buffer{}, coin); rc != 0 {
		t.Fatalf("cli exit %d", rc)
	}
	var fromPage, fromCLI map[string]any
	_ = json.Unmarshal(a.Result, &fromPage)
	_ = json.Unmarshal(cli.Bytes(), &fromCLI)
	for _, m := range []map[string]any{fromPage, fromCLI} {
		delete(m["report"].(map[string]any)["provenance"].(map[string]any), "workers")
	}
	if pj, _ := json.Marshal(fromPage); !bytes.Equal(pj, must(json.Marshal(fromCLI))) {
		t.Errorf("page and command line differ:\n%s\n%s", pj, must(json.Marshal(fromCLI)))
	}
	if a.Command != "stakes sim coin --trials 3000 --seed 4 --no-time" {
		t.Errorf("command %q", a.Command)
	}
	for _, tc := range []struct {
		args      []string
		status    int
		err, flag string
	}{
		{[]string{"sim", "coin", "--set", "target=abc"}, 400, "target", "--set"},
		{[]string{"sim", "coin", "--set", "targt=3"}, 400, "did you mean target?", "--set"},
		{[]string{"sim", "coin", "--trials", "0"}, 400, "--trials 0", "--trials"},
		{[]string{"odds", "3d7x"}, 400, "3d7x", ""},
		{[]string{"merge", "x.json"}, 400, "the page runs only", ""},
		{[]string{"sim", "coin", "--plot", "/tmp/x.png"}, 400, "neither reads nor writes files", ""},
		{[]string{"sim", "coin", "--file=/etc/passwd"}, 400, "neither reads nor writes files", ""},
		{[]string{}, 400, "the page runs only", ""},
	} {
		code, body := get(t, h, "127.0.0.1:1", runURL(tc.args...))
		var a runAnswer
		_ = json.Unmarshal(body, &a)
		if code != tc.status || !strings.Contains(a.Error, tc.err) || a.Flag != tc.flag {
			t.Errorf("%q: %d %+v; want %d, error with %q, flag %q", tc.args, code, a, tc.status, tc.err, tc.flag)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestServeStopEndsARunWithItsPartialReport: a streamed run reports its
// progress, and the page's Stop ends it with what it finished, marked
// partial, long before its trials would have.
func TestServeStopEndsARunWithItsPartialReport(t *testing.T) {
	srv := httptest.NewServer(Handler(coin))
	defer srv.Close()
	q := url.Values{"a": {"sim", "coin", "--set", "target=50", "--trials", "1000000000", "--workers", "1"}, "stream": {"1"}, "id": {"run1"}}
	resp, err := http.Get(srv.URL + "/api/run?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	progress, stopped := 0, time.Time{}
	var last runAnswer
	for sc.Scan() {
		var a runAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		if a.Total > 0 {
			progress++
			if progress == 2 && stopped.IsZero() {
				stopped = time.Now()
				if _, err := http.Get(srv.URL + "/api/stop?id=run1"); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		last = a
	}
	if progress < 2 || stopped.IsZero() {
		t.Fatalf("%d progress lines", progress)
	}
	if wait := time.Since(stopped); wait > time.Second {
		t.Errorf("the run took %v to stop", wait)
	}
	var res result
	if err := json.Unmarshal(last.Result, &res); err != nil || !res.Report.Provenance.Partial || !strings.Contains(last.Error, "partial") {
		t.Errorf("last answer %v %+v", err, last)
	}
}

// TestSimHTMLIsOneSelfContainedPage: --html writes the study as one page
// with its tables and figure inline, no script and nothing to fetch.
func TestSimHTMLIsOneSelfContainedPage(t *testing.T) {
	file := t.TempDir() + "/report.html"
	var out, errb bytes.Buffer
	if rc := Run(context.Background(), []string{"sim", "coin", "--trials", "2000", "--html", file}, &out, &errb, coin); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	page, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!doctype html>", "race to 1 heads on d2", "<td>a_wins</td>", "side a reached the target first",
		"<svg", "stakes sim coin --trials 2000 --html", "<style>"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, banned := range []string{"<script", "src=\"http", "href=\"http", "<?xml"} {
		if bytes.Contains(page, []byte(banned)) {
			t.Errorf("the report holds %q: not self-contained", banned)
		}
	}
}

// benchGet times one page request of path against the handler.
func benchGet(b *testing.B, h http.Handler, path string) {
	b.Helper()
	for b.Loop() {
		req := httptest.NewRequest("GET", path, nil)
		req.Host = "127.0.0.1:1"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body.String())
		}
	}
}

// The page's answers a designer waits for: the page and its mechanics,
// a dice expression's exact odds, and a built-in scenario's exact odds
// after a change of house rule.
func BenchmarkPageLoad(b *testing.B) {
	benchGet(b, Handler(testMechanics...), "/")
}

func BenchmarkPageMechanics(b *testing.B) {
	benchGet(b, Handler(testMechanics...), "/api/mechanics")
}

func BenchmarkPageDiceOdds(b *testing.B) {
	benchGet(b, Handler(testMechanics...), runURL("odds", "4d6kh3"))
}

func BenchmarkPageExactAfterASetting(b *testing.B) {
	benchGet(b, Handler(testMechanics...), runURL("odds", "edge", "--set", "rules.start_edge=6"))
}
