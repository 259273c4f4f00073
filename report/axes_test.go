package report

import (
	"slices"
	"testing"

	"gonum.org/v1/plot"
)

func TestFormats(t *testing.T) {
	tests := []struct{ got, want string }{
		{commas(0), "0"},
		{commas(999), "999"},
		{commas(1000), "1,000"},
		{commas(1809927), "1,809,927"},
		{commas(10237051720), "10,237,051,720"},
		{compact(1), "1"},
		{compact(100), "100"},
		{compact(20000), "20k"},
		{compact(1.5e6), "1.5M"},
		{compact(1e10), "10B"},
		{factor(1809927, 791655), "÷2.29"},
		{factor(10, 0), "÷–"},
		{percent(0.3290303973585675), "32.90%"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// labelsOf returns the labels of the ticks m marks, unlabelled ticks left
// out.
func labelsOf(m plot.Ticker) func(lo, hi float64) []string {
	return func(lo, hi float64) []string {
		var out []string
		for _, t := range m.Ticks(lo, hi) {
			if t.Label != "" {
				out = append(out, t.Label)
			}
		}
		return out
	}
}

func TestTicks(t *testing.T) {
	tests := []struct {
		name   string
		marker func(lo, hi float64) []string
		lo, hi float64
		want   []string
	}{
		{"log over decades", labelsOf(logTicks{}), 0, 6, []string{"1", "10", "100", "1k", "10k", "100k", "1M"}},
		{"log within a decade", labelsOf(logTicks{}), 4, 5, []string{"10k", "20k", "50k", "100k"}},
		{"integers", labelsOf(integerTicks{}), -0.5, 5.5, []string{"0", "1", "2", "3", "4", "5"}},
		{"integers by two", labelsOf(integerTicks{}), -0.5, 19.5, []string{"0", "2", "4", "6", "8", "10", "12", "14", "16", "18"}},
		{"integers by five", labelsOf(integerTicks{}), 1.5, 35.5, []string{"5", "10", "15", "20", "25", "30", "35"}},
		{"percent", labelsOf(percentTicks{}), 0, 1, []string{"0%", "20%", "40%", "60%", "80%", "100%"}},
		{"percent small", labelsOf(percentTicks{}), 0, 0.3, []string{"0%", "10%", "20%", "30%"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.marker(tc.lo, tc.hi); !slices.Equal(got, tc.want) {
				t.Errorf("labels %q, want %q", got, tc.want)
			}
		})
	}
}
