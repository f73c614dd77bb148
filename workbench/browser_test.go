package workbench

import (
	"context"
	"encoding/json"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The page's tests run in a real headless Chromium, Debian's package,
// driven by chromedp: the Chrome DevTools Protocol from Go, with no
// browser download and no JavaScript toolchain (a well-kept module; go-rod
// does the same with more of its own machinery). Where no Chromium is
// installed they are skipped with a line saying how to install it, unless
// STAKES_REQUIRE_BROWSER is set (as .ci/run sets it), which makes a missing
// browser a failure.

// chromiumPath finds the browser, or skips (or fails) the test.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the page's browser tests are skipped with -short")
	}
	for _, name := range []string{os.Getenv("STAKES_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("STAKES_REQUIRE_BROWSER") != "" {
		t.Fatal("STAKES_REQUIRE_BROWSER is set but no Chromium was found (apt-get install chromium)")
	}
	t.Skip("no headless Chromium: apt-get install chromium (Debian) to run the page's browser tests")
	return ""
}

// browser starts the workbench on a test server and a headless Chromium
// on it, and returns a context for chromedp actions with the page's URL.
func browser(t *testing.T, mechs ...Mechanic) (context.Context, string) {
	t.Helper()
	exe := chromiumPath(t)
	srv := httptest.NewServer(Handler(mechs...))
	t.Cleanup(srv.Close)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelT)
	return ctx, srv.URL + "/"
}

// do runs chromedp actions, failing the test with what was being done.
func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// evalAs evaluates a JavaScript expression in the page (waiting for a
// promise) and returns its value.
func evalAs[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// js runs a JavaScript statement in the page.
func js(t *testing.T, ctx context.Context, stmt string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void]("(() => { "+stmt+" })()")); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// waitFor waits until the JavaScript condition holds in the page.
func waitFor(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+cond+")")); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			body, _ := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body.innerText.slice(0, 3000)"))
			t.Fatalf("waiting for %s: timed out; the page says:\n%s", cond, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// screenshot saves the page as it looks to STAKES_SCREENSHOTS (or a
// temporary directory), for a person to look at.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("STAKES_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	img, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, img, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// setInput puts value into the field sel, as typing does, and fires its
// input and change events.
func setInput(t *testing.T, ctx context.Context, sel, value string) {
	t.Helper()
	js(t, ctx, `const e = document.querySelector(`+jsString(sel)+`); if (!e) throw new Error("no "+`+jsString(sel)+`);
		e.value = `+jsString(value)+`; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));`)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// click clicks the element sel.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	js(t, ctx, `const e = document.querySelector(`+jsString(sel)+`); if (!e) throw new Error("no "+`+jsString(sel)+`); e.click();`)
}

// exportText reads the content of a result's export link, as the file a
// designer would download.
func exportText(t *testing.T, ctx context.Context, section, label string) string {
	t.Helper()
	return evalAs[string](t, ctx, `fetch(document.querySelector('#`+section+` [data-export="`+label+`"]').href).then(r => r.text())`)
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
