package report

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
)

// page is what the HTML template shows.
type page struct {
	Dir        string
	Version    string
	FontFace   template.CSS
	Runs       []runView
	Comparison []rowView
	Overlays   []figure
}

// figure is one chart on the page.
type figure struct {
	ID    string
	Chart string
	SVG   template.HTML
}

// cell is one number of the comparison table or of a run's facts: key is
// the summary.json key it shows, for readers and tests.
type cell struct {
	Key    string
	Label  string
	Value  string
	Factor string
}

// rowView is one run in the comparison table.
type rowView struct {
	ID, Game, Board string
	Cells           []cell
}

// runView is one run's section.
type runView struct {
	ID, Game, Board, Dir string
	Start                []string
	// Note says how to read a loopy game's section.
	Note     string
	Facts    []cell
	Manifest *Manifest
	Charts   []figure
}

// cells returns the numbers of a run that the table and its facts show.
func cells(r Run) []cell {
	s := r.Summary
	l := ladder(r)
	f := ladderFactors(r)
	cs := []cell{
		{Key: "positions", Label: "positions", Value: commas(s.Positions)},
		{Key: "moves", Label: "moves", Value: commas(s.Moves)},
		{Key: "tiers", Label: "tiers", Value: commas(uint64(s.Tiers))},
		{Key: "split_share", Label: "split share", Value: percent(s.SplitShare)},
		{Key: "dead_share", Label: "with a dead piece", Value: percent(s.DeadShare)},
		{Key: "dead_free_boards", Label: "dead-free boards", Value: commas(l[1]), Factor: f[0]},
		{Key: "pieces_in_place", Label: "live pieces in place", Value: commas(l[2]), Factor: f[1]},
		{Key: "pieces_translated", Label: "translated", Value: commas(l[3]), Factor: f[2]},
		{Key: "pieces_symmetric", Label: "symmetric", Value: commas(l[4]), Factor: f[3]},
		{Key: "pieces_negation", Label: "negation", Value: commas(l[5]), Factor: f[4]},
		{Key: "self_negative_symmetric", Label: "self-negative", Value: commas(s.SelfNegativeSymmetric)},
	}
	edge := cell{Key: "edge_rule_joins", Label: "edge-rule joins", Value: "–"}
	if s.EdgeRuleJoins != nil {
		edge.Value = commas(*s.EdgeRuleJoins)
	}
	return append(cs, edge)
}

// figures renders charts as inline SVG, with ids prefixed by prefix.
func figures(prefix string, charts []*chart) ([]figure, error) {
	figs := make([]figure, 0, len(charts))
	for _, ch := range charts {
		svg, err := ch.SVG()
		if err != nil {
			return nil, err
		}
		figs = append(figs, figure{ID: prefix + "-" + ch.Name, Chart: ch.Name, SVG: template.HTML(svg)})
	}
	return figs, nil
}

// loopyNote says how to read the section of a loopy game's census.
const loopyNote = "A loopy game, solved by retrograde analysis: every state (arrangement and player to move) is won, lost or drawn for the player to move with best play. " +
	"The start shows the points round the circle, then the centre (B Black, W White, . empty). " +
	"The random player picks uniformly among its legal moves against a perfect player; its chances are exact sums over every branch, not samples."

// fontFace embeds the charts' font, so that the page needs no other file
// and draws text with the metrics gonum laid the charts out with. The font
// is under the SIL Open Font License, which allows embedding.
func fontFace() template.CSS {
	return template.CSS(fmt.Sprintf(`@font-face { font-family: "Liberation Sans"; font-style: normal; font-weight: normal; src: url(data:font/ttf;base64,%s) format("truetype"); }`,
		base64.StdEncoding.EncodeToString(liberationsansregular.TTF)))
}

// newPage lays out runs (in report order) with their charts and the
// overlays, dir being the directory the report is for.
func newPage(dir, version string, runs []Run, charts map[string][]*chart, overlays []*chart) (*page, error) {
	pg := &page{Dir: dir, Version: version, FontFace: fontFace()}
	compare := len(tieredRuns(runs)) > 1
	for _, r := range runs {
		figs, err := figures(r.ID, charts[r.ID])
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(dir, r.Dir)
		if err != nil {
			rel = r.Dir
		}
		if r.Loopy != nil {
			pg.Runs = append(pg.Runs, runView{
				ID: r.ID, Game: r.Game(), Board: r.Board(), Dir: filepath.ToSlash(rel), Note: loopyNote,
				Start: []string{r.Loopy.Start}, Facts: loopyCells(r), Manifest: r.Manifest, Charts: figs,
			})
			continue
		}
		facts := cells(r)
		if r.Summary.EdgeRuleJoins == nil {
			// Only the comparison table needs the column for other games.
			facts = slices.DeleteFunc(facts, func(c cell) bool { return c.Key == "edge_rule_joins" })
		}
		pg.Runs = append(pg.Runs, runView{
			ID: r.ID, Game: r.Summary.Game, Board: r.Summary.Board, Dir: filepath.ToSlash(rel),
			Start: strings.Split(r.Summary.Start, "/"), Facts: facts, Manifest: r.Manifest, Charts: figs,
		})
		if compare {
			pg.Comparison = append(pg.Comparison, rowView{ID: r.ID, Game: r.Summary.Game, Board: r.Summary.Board, Cells: cells(r)})
		}
	}
	figs, err := figures("all", overlays)
	if err != nil {
		return nil, err
	}
	pg.Overlays = figs
	return pg, nil
}

func (pg *page) write(w io.Writer) error {
	return pageTemplate.Execute(w, pg)
}

// pageTemplate writes XHTML-compatible HTML: every element closed, so that
// the page parses as XML too.
var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"headers": func(rows []rowView) []cell {
		if len(rows) == 0 {
			return nil
		}
		return rows[0].Cells
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>census report: {{.Dir}}</title>
<style>
{{.FontFace}}
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; color: #222; margin: 24px auto; max-width: 1360px; padding: 0 16px; }
h1 { font-size: 24px; margin-bottom: 4px; }
h2 { font-size: 20px; border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 40px; }
p.note { color: #555; margin-top: 0; }
table { border-collapse: collapse; font-size: 13px; margin: 12px 0; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 4px 8px; }
th { text-align: left; background: #f5f5f5; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
span.factor { color: #8a5a00; margin-left: 4px; }
div.head { display: flex; gap: 32px; align-items: flex-start; flex-wrap: wrap; }
pre.board { font-size: 15px; line-height: 1.15; letter-spacing: 3px; background: #f5f5f5; padding: 6px 10px; margin: 12px 0; }
dl.run { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; font-size: 13px; margin: 12px 0; }
dl.run dt { color: #555; }
dl.run dd { margin: 0; }
div.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 16px; }
div.wide { grid-template-columns: 1fr; }
figure.chart { margin: 0; }
figure.chart svg { width: 100%; height: auto; display: block; }
div.wide figure.chart svg { max-width: 1140px; }
</style>
</head>
<body>
<h1>census report</h1>
<p class="note">{{len .Runs}} run(s) under <code>{{.Dir}}</code>, ordered by game, then board size. Drawn by census {{.Version}}.</p>
{{if .Comparison}}<section id="comparison">
<h2>Comparison</h2>
<p class="note">Each level of identification with the factor by which it shrinks the level before it. Split share: positions with two or more live pieces.</p>
<table id="comparison-table">
<thead><tr><th>game</th><th>board</th>{{range headers .Comparison}}<th>{{.Label}}</th>{{end}}</tr></thead>
<tbody>
{{range .Comparison}}<tr data-run="{{.ID}}"><td data-key="game">{{.Game}}</td><td data-key="board">{{.Board}}</td>{{range .Cells}}<td class="num" data-key="{{.Key}}">{{.Value}}{{if .Factor}}<span class="factor">{{.Factor}}</span>{{end}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{if .Overlays}}<div class="charts wide">
{{range .Overlays}}<figure class="chart" id="{{.ID}}" data-chart="{{.Chart}}">
{{.SVG}}</figure>
{{end}}</div>
{{end}}</section>
{{end}}{{range .Runs}}<section class="run" id="run-{{.ID}}" data-run="{{.ID}}">
<h2>{{.Game}} {{.Board}}</h2>
{{with .Note}}<p class="note">{{.}}</p>
{{end}}<div class="head">
<div><pre class="board" title="start position">{{range .Start}}{{.}}
{{end}}</pre></div>
<dl class="run">
<dt>directory</dt><dd><code>{{.Dir}}</code></dd>
{{with .Manifest}}<dt>run</dt><dd><code>{{.Run}}</code>, census {{.Census}}</dd>
{{if not .Written.IsZero}}<dt>finished</dt><dd>{{.Written.Format "2006-01-02 15:04 MST"}} (run.json written)</dd>
{{end}}{{end}}</dl>
<table class="facts">
<tbody>
{{range .Facts}}<tr><th>{{.Label}}</th><td class="num" data-key="{{.Key}}">{{.Value}}{{if .Factor}}<span class="factor">{{.Factor}}</span>{{end}}</td></tr>
{{end}}</tbody>
</table>
</div>
<div class="charts">
{{range .Charts}}<figure class="chart" id="{{.ID}}" data-chart="{{.Chart}}">
{{.SVG}}</figure>
{{end}}</div>
</section>
{{end}}</body>
</html>
`))
