package workbench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stakesrpg/stakes/dice"
)

// pageCase is the mechanic and settings a walk through the page uses.
type pageCase struct {
	mech, key, value, axis, b string
}

// TestPageWalk walks every section of the page as a designer would, in a
// real headless Chromium: dice odds read off the chart and checked against
// the library, a setting changed and the exact odds following, a
// simulation stopped and one run whole (the command line's numbers), a
// sweep, a comparison, best play, narrated games, every export checked
// against the library, and a bad setting reported beside its field.
func TestPageWalk(t *testing.T) {
	pc := pageCase{mech: "edge", key: "rules.start_edge", value: "6", axis: "rules.start_edge=4..6", b: "rules.start_edge=6"}
	ctx, url := browser(t, testMechanics...)
	do(t, ctx, "open the page", chromedp.Navigate(url))
	waitFor(t, ctx, `document.body.dataset.ready === '1' && document.querySelector('#dice table.dist')`)
	pageDice(t, ctx)
	do(t, ctx, "open the study", chromedp.Navigate(url+"#tab=study&mech="+pc.mech))
	do(t, ctx, "reload", chromedp.Reload())
	waitFor(t, ctx, `document.body.dataset.ready === '1' && document.querySelector('#study .exact-table')`)
	pageStudy(t, ctx, pc)
	pageSim(t, ctx, pc)
	pageOthers(t, ctx, pc)
}

// pageDice: 3d6's chance of 10 read off the chart equals the exact 27/216,
// the at-least view shows P(>= v), and A vs B answers.
func pageDice(t *testing.T, ctx context.Context) {
	setInput(t, ctx, "#dice [name=expr]", "3d6")
	click(t, ctx, "#dice button[type=submit]")
	waitFor(t, ctx, `document.querySelector('#dice svg.chart [data-label="10"]') && document.querySelector('#dice .card h3').textContent.startsWith('3d6')`)
	p10 := evalAs[float64](t, ctx, `+document.querySelector('#dice svg.chart [data-label="10"]').dataset.value`)
	if !near(p10, 27.0/216, 1e-12) {
		t.Errorf("P(3d6 = 10) on the chart: %v, want 27/216", p10)
	}
	setInput(t, ctx, "#dice [name=view]", "at_least")
	click(t, ctx, "#dice button[type=submit]")
	waitFor(t, ctx, `document.querySelector('#dice svg.chart').dataset.title.includes('>=')`)
	atLeast := evalAs[float64](t, ctx, `+document.querySelector('#dice svg.chart [data-label="10"]').dataset.value`)
	if !near(atLeast, 135.0/216, 1e-12) {
		t.Errorf("P(3d6 >= 10) on the chart: %v, want 135/216", atLeast)
	}
	screenshot(t, ctx, "dice")
	csv := exportText(t, ctx, "dice", "CSV")
	if !strings.HasPrefix(csv, "value,P(= v),P(>= v),P(<= v),exactly\n3,0.004630,1.000000,0.004630,1/216\n") {
		t.Errorf("dice CSV starts %q", csv[:min(len(csv), 80)])
	}
	setInput(t, ctx, "#dice [name=vs]", "d20")
	click(t, ctx, "#dice button[type=submit]")
	waitFor(t, ctx, `document.querySelector('#dice table.versus')`)
	higher := evalAs[string](t, ctx, `document.querySelector('#dice table.versus tr:nth-child(2) td:nth-child(2)').textContent`)
	d3, _ := dice.ParseExpr("3d6")
	d20, _ := dice.ParseExpr("d20")
	a, _, _ := d3.Dist()
	b, _, _ := d20.Dist()
	if want := strconv.FormatFloat(a.Greater(b), 'f', 6, 64); higher != want {
		t.Errorf("P(3d6 > d20) %s, want %s", higher, want)
	}
	setInput(t, ctx, "#dice [name=vs]", "")
	setInput(t, ctx, "#dice [name=expr]", "3d6x")
	click(t, ctx, "#dice button[type=submit]")
	waitFor(t, ctx, `document.querySelector('#dice [data-err]').textContent.includes('3d6x')`)
}

// pageStudy: changing a setting changes the exact odds to the library's
// for that setting; a bad value is reported beside the settings.
func pageStudy(t *testing.T, ctx context.Context, pc pageCase) {
	before := evalAs[string](t, ctx, `document.querySelector('#study .exact-table').innerText`)
	setInput(t, ctx, `#study .settings input[data-key="`+pc.key+`"]`, pc.value)
	waitFor(t, ctx, `document.querySelector('#study .exact-table') && document.querySelector('#study .exact-table').innerText !== `+jsString(before))
	m := termsMechanic(pc.mech)
	e := testEnv()
	sc := adapted{m}
	if err := applySets(sc, []string{pc.key + "=" + pc.value}); err != nil {
		t.Fatal(err)
	}
	ex, err := sc.exact(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	shown := evalAs[[]string](t, ctx, `[...document.querySelectorAll('#study .exact-table tr td:nth-child(2)')].map(td => td.textContent)`)
	for i, p := range ex.P {
		if i >= len(shown) || shown[i] != strconv.FormatFloat(p, 'f', 6, 64) {
			t.Errorf("exact odds after %s=%s: page %q, library %v", pc.key, pc.value, shown, ex.P)
			break
		}
	}
	hash := evalAs[string](t, ctx, `location.hash`)
	if !strings.Contains(hash, "set="+pc.key) {
		t.Errorf("the address does not keep the setting: %s", hash)
	}
	screenshot(t, ctx, "study")
	scenario := exportText(t, ctx, "study .exact", "scenario file")
	var sf struct {
		Mechanic string         `json:"mechanic"`
		Scenario map[string]any `json:"scenario"`
	}
	if err := json.Unmarshal([]byte(scenario), &sf); err != nil || sf.Mechanic != pc.mech || len(sf.Scenario) == 0 {
		t.Errorf("scenario file %v: %s", err, scenario)
	}
	// The scenario file plays unchanged with stakes run: the study as set.
	file := filepath.Join(t.TempDir(), "study.jsonc")
	if err := os.WriteFile(file, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if rc := Run(context.Background(), []string{"run", file, "--trials", "300"}, &out, &strings.Builder{}, testMechanics...); rc != 0 ||
		!strings.Contains(out.String(), pc.value+" edge dice each") {
		t.Errorf("stakes run of the exported scenario file: exit %d\n%s", rc, out.String())
	}
	setInput(t, ctx, `#study .settings input[data-key="`+pc.key+`"]`, "six")
	waitFor(t, ctx, `document.querySelector('#study [data-flag="--set"]').textContent.includes('takes a whole number')`)
	waitFor(t, ctx, `document.querySelector('#study .settings input.bad')`)
	setInput(t, ctx, `#study .settings input[data-key="`+pc.key+`"]`, pc.value)
	waitFor(t, ctx, `document.querySelector('#study [data-flag="--set"]').textContent === ''`)
}

// pageSim: a long simulation stops when asked, marked partial; a short one
// gives the command line's numbers for the same scenario and seed, and its
// exports hold them.
func pageSim(t *testing.T, ctx context.Context, pc pageCase) {
	setInput(t, ctx, "#study [name=trials]", "200000000")
	click(t, ctx, "#study form[data-run=sim] button[type=submit]")
	waitFor(t, ctx, `document.querySelector('#study progress').value > 0`)
	click(t, ctx, "#study [data-action=stop]")
	waitFor(t, ctx, `document.querySelector('#study .out .partial')`)
	setInput(t, ctx, "#study [name=trials]", "3000")
	setInput(t, ctx, "#study [name=seed]", "5")
	click(t, ctx, "#study form[data-run=sim] button[type=submit]")
	waitFor(t, ctx, `document.querySelector('#study .out .sim-table') && !document.querySelector('#study .out .partial')`)
	screenshot(t, ctx, "simulation")
	var page result
	if err := json.Unmarshal([]byte(exportText(t, ctx, "study .out", "JSON")), &page); err != nil {
		t.Fatal(err)
	}
	var cli strings.Builder
	if rc := Run(context.Background(), []string{"sim", pc.mech, "--set", pc.key + "=" + pc.value, "--trials", "3000", "--seed", "5", "--json"},
		&cli, &strings.Builder{}, testMechanics...); rc != 0 {
		t.Fatalf("cli exit %d", rc)
	}
	var want result
	_ = json.Unmarshal([]byte(cli.String()), &want)
	for i, c := range want.Report.Categories {
		if page.Report.Categories[i].Count != c.Count {
			t.Errorf("%s: the page counted %d, the command line %d", c.Name, page.Report.Categories[i].Count, c.Count)
		}
	}
	if csv := exportText(t, ctx, "study .out", "CSV"); !strings.HasPrefix(csv, "outcome,sampled,95% interval,exact\n") {
		t.Errorf("sim CSV: %q", csv)
	}
	if html := exportText(t, ctx, "study .out", "HTML"); !strings.Contains(html, "<table") || !strings.Contains(html, "<svg") || strings.Contains(html, "<script") {
		t.Errorf("the exported HTML is not a self-contained report")
	}
	if svg := exportText(t, ctx, "study .out", "SVG"); !strings.HasPrefix(svg, "<svg") {
		t.Errorf("SVG export: %q", svg[:min(80, len(svg))])
	}
	waitFor(t, ctx, `document.querySelector('#study .out [data-export="PNG"]').dataset.ready === '1'`)
	png := evalAs[string](t, ctx, `fetch(document.querySelector('#study .out [data-export="PNG"]').href).then(r => r.arrayBuffer()).then(b => String.fromCharCode(...new Uint8Array(b).slice(1, 4)))`)
	if png != "PNG" {
		t.Errorf("PNG export starts %q", png)
	}
}

// pageOthers: sweep, compare, solve and narrated games each answer.
func pageOthers(t *testing.T, ctx context.Context, pc pageCase) {
	click(t, ctx, `#tabs [data-tab=sweep]`)
	setInput(t, ctx, "#sweep [name=axis1]", pc.axis)
	setInput(t, ctx, "#sweep [name=trials]", "500")
	click(t, ctx, "#sweep button[type=submit]")
	waitFor(t, ctx, `document.querySelectorAll('#sweep svg.chart .series').length > 0`)
	points := evalAs[int](t, ctx, `document.querySelector('#sweep svg.chart .series').querySelectorAll('.point').length`)
	if points != 3 {
		t.Errorf("sweep over %s drew %d points a line", pc.axis, points)
	}
	screenshot(t, ctx, "sweep")
	setInput(t, ctx, "#sweep [name=axis1]", pc.key+"=3-8")
	click(t, ctx, "#sweep button[type=submit]")
	waitFor(t, ctx, `document.querySelector('#sweep [data-flag="--axis"].bad') && document.querySelector('#sweep [data-err]').textContent.includes('3..8')`)

	click(t, ctx, `#tabs [data-tab=compare]`)
	setInput(t, ctx, "#compare [name=b]", pc.b)
	setInput(t, ctx, "#compare [name=trials]", "2000")
	click(t, ctx, "#compare button[type=submit]")
	waitFor(t, ctx, `document.querySelectorAll('#compare .verdicts li').length > 0`)
	screenshot(t, ctx, "compare")

	click(t, ctx, `#tabs [data-tab=solve]`)
	click(t, ctx, "#solve button[type=submit]")
	waitFor(t, ctx, `document.querySelector('#solve .solve-table')`)
	if worth := evalAs[string](t, ctx, `document.querySelector('#solve .worth').textContent`); !strings.HasPrefix(worth, "playing well is worth ") ||
		!strings.Contains(worth, "against its own play") {
		t.Errorf("solve's first line: %q", worth)
	}
	if ad := evalAs[string](t, ctx, `(document.querySelector('#solve ol.advice li') || {}).textContent || ''`); ad != "" &&
		(!strings.Contains(ad, " rather than ") || !strings.HasSuffix(ad, " a game")) {
		t.Errorf("an advice line reads %q", ad)
	}
	screenshot(t, ctx, "solve")

	click(t, ctx, `#tabs [data-tab=games]`)
	click(t, ctx, "#games button[type=submit]")
	waitFor(t, ctx, `document.querySelectorAll('#games ol.narration li').length > 0`)
	screenshot(t, ctx, "games")
	hash := evalAs[string](t, ctx, `location.hash`)
	for _, want := range []string{"run=sim", "run=sweep", "run=compare", "run=solve", "run=games", "tab=games"} {
		if !strings.Contains(hash, want) {
			t.Errorf("the address lacks %s: %s", want, hash)
		}
	}
}
