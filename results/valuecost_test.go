package results_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/values"
)

// checkLevels checks the levels of a value summary, if it has them,
// against its counts: one level a piece size, smallest first, whose pieces
// and capped values add up to the summary's.
func checkLevels(t *testing.T, v valueRun) {
	t.Helper()
	if len(v.Levels) == 0 {
		return
	}
	var pieces, capped uint64
	for i, l := range v.Levels {
		pieces += l.Pieces
		capped += l.Capped
		if i > 0 && l.Size <= v.Levels[i-1].Size {
			t.Errorf("level %d: size %d after %d", i, l.Size, v.Levels[i-1].Size)
		}
		if l.Pieces == 0 || l.Jobs <= 0 || l.Capped > l.Pieces {
			t.Errorf("size %d: %d pieces, %d capped, %d jobs", l.Size, l.Pieces, l.Capped, l.Jobs)
		}
		if l.WallS < 0 || l.CPUS < 0 || l.LoadS < 0 || l.LoadS > l.JobWallS {
			t.Errorf("size %d: wall %v s, CPU %v s, job wall %v s, load %v s", l.Size, l.WallS, l.CPUS, l.JobWallS, l.LoadS)
		}
		if l.MaxNodes > values.DefaultCap || l.MeanNodes > float64(l.MaxNodes) || (l.Capped < l.Pieces && l.MeanNodes < 1) {
			t.Errorf("size %d: mean form %v nodes, largest %d", l.Size, l.MeanNodes, l.MaxNodes)
		}
	}
	if pieces != v.PiecesTranslated-v.PiecesNotValued || capped != v.ValuesCapped {
		t.Errorf("the levels hold %d pieces, %d capped; the summary %d valued, %d capped", pieces, capped, v.PiecesTranslated-v.PiecesNotValued, v.ValuesCapped)
	}
	if last := v.Levels[len(v.Levels)-1].Size; v.Partial() && last > v.MaxSize {
		t.Errorf("a run valued up to size %d has a level of size %d", v.MaxSize, last)
	}
}

// seconds writes a time in seconds to the millisecond.
func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// perSecond writes n a second over s seconds, to a tenth below 100, or –
// when no time was measured.
func perSecond(n uint64, s float64) string {
	switch r := float64(n) / s; {
	case s <= 0:
		return "–"
	case r < 100:
		return fmt.Sprintf("%.1f", r)
	default:
		return commas(uint64(r + 0.5))
	}
}

// forms writes the mean and the largest size of a level's forms within the
// cap, or – for both when every form of the level is over it.
func forms(l schema.ValueLevel) (mean, largest string) {
	if l.MaxNodes == 0 {
		return "–", "–"
	}
	return fmt.Sprintf("%.1f", l.MeanNodes), commas(uint64(l.MaxNodes))
}

// valueCostTables is a table a value summary with levels: what valuing
// each piece size took, and a last row for the whole values stage.
func valueCostTables(runs []valueRun) string {
	var b strings.Builder
	for _, v := range runs {
		if len(v.Levels) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n#### %s %s\n\n", strings.ToUpper(v.Game[:1])+v.Game[1:], boardLabel(v))
		b.WriteString("| size | pieces | jobs | wall s | pieces per wall s | CPU s | load s | capped | mean form nodes | largest form |\n")
		b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		var all schema.ValueLevel
		for _, l := range v.Levels {
			mean, largest := forms(l)
			fmt.Fprintf(&b, "| %d | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", l.Size, commas(l.Pieces), l.Jobs,
				seconds(l.WallS), perSecond(l.Pieces, l.WallS), seconds(l.CPUS), seconds(l.LoadS), commas(l.Capped),
				mean, largest)
			all.Pieces += l.Pieces
			all.Jobs += l.Jobs
			all.WallS += l.WallS
			all.CPUS += l.CPUS
			all.LoadS += l.LoadS
			all.Capped += l.Capped
			all.MaxNodes = max(all.MaxNodes, l.MaxNodes)
		}
		_, largest := forms(all)
		fmt.Fprintf(&b, "| all | %s | %d | %s | %s | %s | %s | %s | – | %s |\n", commas(all.Pieces), all.Jobs,
			seconds(all.WallS), perSecond(all.Pieces, all.WallS), seconds(all.CPUS), seconds(all.LoadS), commas(all.Capped),
			largest)
	}
	b.WriteString("\n")
	return b.String()
}

// valueCostChart draws, for each value summary with levels, the pieces
// valued a CPU second by piece size in the upper panel and the mean size of
// their canonical forms in the lower, both on logarithmic scales.
func valueCostChart(runs []valueRun) string {
	const w, left, right, top, panel, gap, bottom = 720, 60, 200, 20, 230, 60, 50
	const h = top + 2*panel + gap + bottom
	var rates, nodes []float64
	minSize, maxSize := int(^uint(0)>>1), 0
	for _, v := range runs {
		for _, l := range v.Levels {
			if l.CPUS > 0 {
				rates = append(rates, float64(l.Pieces)/l.CPUS)
			}
			if l.MeanNodes > 0 {
				nodes = append(nodes, l.MeanNodes)
			}
			minSize, maxSize = min(minSize, l.Size), max(maxSize, l.Size)
		}
	}
	if maxSize <= minSize {
		maxSize = minSize + 1
	}
	pw := float64(w - left - right)
	x := func(size int) float64 { return float64(left) + pw*float64(size-minSize)/float64(maxSize-minSize) }
	rateAxis := newLogAxis(rates, top, panel)
	nodeAxis := newLogAxis(nodes, top+panel+gap, panel)
	var b strings.Builder
	svgStart(&b, w, h)
	rateAxis.draw(&b, left, left+pw, "pieces valued per CPU second")
	nodeAxis.draw(&b, left, left+pw, "mean canonical form (nodes)")
	for _, a := range []logAxis{rateAxis, nodeAxis} {
		for s := minSize + minSize%2; s <= maxSize; s += 2 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%d</text>`+"\n", x(s), a.top+a.height+16, s)
		}
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">piece size (stones in Clobber, squares in Domineering and Amazons)</text>`+"\n", float64(left)+pw/2, h-12)
	i := 0
	for _, v := range runs {
		if len(v.Levels) == 0 {
			continue
		}
		c, dash := lineStyle(i, v.Game)
		var ratePts, nodePts []string
		for _, l := range v.Levels {
			if l.CPUS > 0 {
				ratePts = append(ratePts, fmt.Sprintf("%.1f,%.1f", x(l.Size), rateAxis.y(float64(l.Pieces)/l.CPUS)))
			}
			if l.MeanNodes > 0 {
				nodePts = append(nodePts, fmt.Sprintf("%.1f,%.1f", x(l.Size), nodeAxis.y(l.MeanNodes)))
			}
		}
		polyline(&b, c, dash, ratePts)
		polyline(&b, c, dash, nodePts)
		legendEntry(&b, w-right+12, top+14+18*i, c, dash, v.Game+" "+v.Board)
		i++
	}
	b.WriteString("</svg>\n")
	return b.String()
}
