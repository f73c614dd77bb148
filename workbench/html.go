package workbench

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"os"
	"strings"

	"github.com/stakesrpg/stakes/sim"
)

// An HTML report is a study in one file that opens without a server:
// "stakes sim ... --html FILE" writes one, with the tables and the figure
// of --plot drawn inline as SVG and the page's style sheet, so it can be
// mailed or attached to a design document as it is.

var reportTemplate = template.Must(template.New("report").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>stakes: {{.R.Mechanic}}</title>
<style>{{.CSS}}</style></head>
<body><main>
<h1>stakes {{.R.Mechanic}}</h1>
<p class="title">{{.R.Scenario}}</p>
<p class="note">scenario: {{.Source}}; {{.R.Report.Trials}} trials, seed {{.R.Report.Provenance.Seed}}, generator {{.R.Report.Provenance.Generator}}{{if .R.Report.Provenance.Partial}}, <span class="partial">PARTIAL</span>{{end}}</p>
<table class="sim-table"><tr><th>outcome</th><th>sampled</th><th>95% interval</th>{{if .R.Exact}}<th>exact</th>{{end}}<th>what it means</th></tr>
{{range .Outcomes}}<tr><td>{{.Name}}</td><td>{{.P}}</td><td>{{.Interval}}</td>{{if $.R.Exact}}<td>{{.Exact}}</td>{{end}}<td class="doc">{{.Means}}</td></tr>
{{end}}</table>
<table class="metrics"><tr><th>metric</th><th>mean</th><th>95% half-width</th><th>range</th><th>what it means</th></tr>
{{range .Metrics}}<tr><td>{{.Name}}</td><td>{{.P}}</td><td>{{.Interval}}</td><td>{{.Exact}}</td><td class="doc">{{.Means}}</td></tr>
{{end}}</table>
{{if .R.NoExact}}<p class="note">exact: none ({{.R.NoExact}})</p>{{end}}
{{.Figure}}
<code class="cmd">{{.Command}}</code>
</main></body></html>
`))

// reportRow is one outcome or metric of an HTML report.
type reportRow struct {
	Name, P, Interval, Exact, Means string
}

// writeHTMLFile writes r as a self-contained HTML report to file.
func writeHTMLFile(e *env, file string, r result, command string) error {
	var buf bytes.Buffer
	if err := writeHTMLReport(&buf, r, e.terms(r.Mechanic), command); err != nil {
		return fmt.Errorf("--html %s: %w", file, err)
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}

// writeHTMLReport writes r as one HTML page with its figure inline.
func writeHTMLReport(w io.Writer, r result, terms []sim.Term, command string) error {
	css, err := webFiles.ReadFile("web/style.css")
	if err != nil {
		return err
	}
	data := map[string]any{"R": r, "CSS": template.CSS(css), "Source": r.source(), "Command": command}
	var outcomes, metrics []reportRow
	for i, c := range r.Report.Categories {
		row := reportRow{Name: c.Name, P: fmt.Sprintf("%.4f", c.P), Interval: fmt.Sprintf("[%.4f, %.4f]", c.Lo, c.Hi), Means: meaning(terms, c.Name)}
		if r.Exact != nil && i < len(r.Exact.P) {
			row.Exact = fmt.Sprintf("%.4f", r.Exact.P[i])
		}
		outcomes = append(outcomes, row)
	}
	for _, m := range r.Report.Metrics {
		metrics = append(metrics, reportRow{Name: m.Name, P: fmt.Sprintf("%.3f", m.Mean), Interval: fmt.Sprintf("%.3f", 1.96*m.SE),
			Exact: fmt.Sprintf("%d..%d", m.Min, m.Max), Means: meaning(terms, m.Name)})
	}
	data["Outcomes"], data["Metrics"] = outcomes, metrics
	if r.Report.Trials > 0 {
		title, panels, err := resultFigure(r)
		if err != nil {
			return err
		}
		var svg bytes.Buffer
		if err := writeFigure(&svg, "svg", title, panels); err != nil {
			return err
		}
		// The figure is our own drawing, not the designer's text.
		data["Figure"] = template.HTML(stripXMLHeader(svg.String()))
	}
	return reportTemplate.Execute(w, data)
}

// meaning is what a name means among terms, or "".
func meaning(terms []sim.Term, name string) string {
	text, _ := explain(terms, name)
	return text
}

// stripXMLHeader drops the XML declaration of an SVG document, which has
// no place inside HTML.
func stripXMLHeader(svg string) string {
	if i := strings.Index(svg, "<svg"); i > 0 {
		return svg[i:]
	}
	return svg
}
