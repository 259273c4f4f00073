package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/census-cgt/census/internal/testbin"
	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/probe/probetest"
)

// browserRun is the run the browser test explores: Clobber 3x3, counted
// and solved by the census binary (census run --solve), its tablebase
// opened from the outputs as census serve opens it.
func browserRun(t *testing.T) *probe.Table {
	t.Helper()
	bin, err := testbin.Census(testbin.Plain)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	args := []string{"run", "clobber", "3x3", "--solve", "--out", out, "--quiet", "--metrics-addr="}
	if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("census %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	tb, err := probe.Open(filepath.Join(out, "clobber-3x3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// shown is what the explorer shows, as its elements' ids and data
// attributes say.
type shown struct {
	Diagram    string      `json:"diagram"`
	ToMove     string      `json:"toMove"`
	Result     string      `json:"result"`
	Remoteness int         `json:"remoteness"`
	State      string      `json:"state"`
	Over       bool        `json:"over"`
	GameOver   string      `json:"gameOver"`
	Error      string      `json:"error"`
	Moves      []shownMove `json:"moves"`
	BestLine   []string    `json:"bestLine"`
	URL        string      `json:"url"`
}

type shownMove struct {
	Move       string `json:"move"`
	Result     string `json:"result"`
	Remoteness int    `json:"remoteness"`
}

const readShown = `(() => {
  const q = (s) => document.querySelector(s);
  const r = q("#result");
  return {
    diagram: q("#board").dataset.diagram || "",
    toMove: q("#to-move").dataset.toMove || "",
    result: r.dataset.result || "",
    remoteness: Number(r.dataset.remoteness || -1),
    state: document.body.dataset.state || "",
    over: document.body.dataset.over === "true",
    gameOver: q("#game-over").hidden ? "" : q("#game-over").textContent,
    error: q("#error").hidden ? "" : q("#error").textContent,
    moves: [...document.querySelectorAll("#moves .move")].map((b) => ({
      move: b.dataset.move, result: b.dataset.result, remoteness: Number(b.dataset.remoteness) })),
    bestLine: [...document.querySelectorAll("#best-line .line-move")].map((li) => li.dataset.move),
    url: location.href,
  };
})()`

// explorer drives one tab of the position explorer.
type explorer struct {
	t   *testing.T
	ctx context.Context
	run Run
}

func (e *explorer) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	e.t.Helper()
	if err := chromedp.Do(e.ctx, actions...); err != nil {
		e.t.Fatalf("%s: %v", what, err)
	}
}

func (e *explorer) shown() shown {
	e.t.Helper()
	s, err := chromedp.Run(e.ctx, chromedp.Evaluate[shown](readShown))
	if err != nil {
		e.t.Fatalf("read the page: %v", err)
	}
	return s
}

// waitFor waits until the page is ready and the JavaScript condition
// holds.
func (e *explorer) waitFor(what, cond string) shown {
	e.t.Helper()
	expr := `document.body.dataset.state === "ready" && (` + cond + `)`
	if _, err := chromedp.Run(e.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		s, _ := chromedp.Run(e.ctx, chromedp.Evaluate[shown](readShown))
		e.t.Fatalf("wait for %s: %v; the page shows %+v", what, err, s)
	}
	return e.shown()
}

// waitShown waits until the page shows diagram with toMove to move.
func (e *explorer) waitShown(diagram string, toMove probe.Player) shown {
	e.t.Helper()
	return e.waitFor(fmt.Sprintf("%s, %s to move", diagram, toMove),
		fmt.Sprintf(`document.querySelector("#board").dataset.diagram === %s && document.querySelector("#to-move").dataset.toMove === %s`,
			jsString(diagram), jsString(toMove.String())))
}

// check compares what the page shows with what the table answers.
func (e *explorer) check(s shown, diagram string, toMove probe.Player) *probe.Answer {
	e.t.Helper()
	a, err := e.run.Probe(diagram, toMove)
	if err != nil {
		e.t.Fatal(err)
	}
	want := a.LeftFirst
	if toMove == probe.Right {
		want = a.RightFirst
	}
	if s.Result != want.Result || s.Remoteness != want.Remoteness {
		e.t.Errorf("%s, %s to move: the page shows %s in %d, the table %s in %d", diagram, toMove, s.Result, s.Remoteness, want.Result, want.Remoteness)
	}
	moves := a.Moves[toMove.String()]
	if len(s.Moves) != len(moves) {
		e.t.Fatalf("%s: the page lists %d moves, the table %d", diagram, len(s.Moves), len(moves))
	}
	for i, m := range moves {
		if got := s.Moves[i]; got.Move != m.Move || got.Result != m.Result || got.Remoteness != m.Remoteness {
			e.t.Errorf("%s: move %d shown %+v, the table's %s %s %d", diagram, i, got, m.Move, m.Result, m.Remoteness)
		}
	}
	if len(s.BestLine) != len(a.BestLine[toMove.String()]) {
		e.t.Errorf("%s: the best line shown has %d moves, the table's %d", diagram, len(s.BestLine), len(a.BestLine[toMove.String()]))
	}
	return a
}

// checkURL checks that the page's URL holds diagram and toMove.
func (e *explorer) checkURL(s shown, diagram string, toMove probe.Player) {
	e.t.Helper()
	u, err := url.Parse(s.URL)
	if err != nil {
		e.t.Fatal(err)
	}
	if q := u.Query(); q.Get("d") != diagram || q.Get("to_move") != toMove.String() {
		e.t.Errorf("URL %s, want d=%s&to_move=%s", s.URL, diagram, toMove)
	}
}

func (e *explorer) screenshot(name string) string {
	e.t.Helper()
	png, err := chromedp.Run(e.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		e.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(e.t.TempDir(), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		e.t.Fatal(err)
	}
	e.t.Logf("screenshot %s", path)
	return path
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// startPosition finds a position, not the start, where Left to move wins
// in at least 3 moves and has several moves: the test's first position.
func startPosition(t *testing.T, run Run) string {
	t.Helper()
	start := run.Info().Start
	seen := map[string]bool{start: true}
	queue := []string{start}
	for i := 0; i < len(queue); i++ {
		a, err := run.Probe(queue[i], probe.Both)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && a.LeftFirst.Result == "win" && a.LeftFirst.Remoteness >= 3 && len(a.Moves["left"]) >= 3 {
			return queue[i]
		}
		for _, moves := range a.Moves {
			for _, m := range moves {
				if !seen[m.Diagram] {
					seen[m.Diagram] = true
					queue = append(queue, m.Diagram)
				}
			}
		}
	}
	t.Fatalf("%s has no position where Left wins in 3 or more", run.Info().Name)
	return ""
}

// openBrowser serves runs on 127.0.0.1 and opens a tab of a headless
// chromium, both stopped with the test, which fails on any uncaught
// exception of the page's scripts. The test gets 55 s.
func openBrowser(t *testing.T, runs ...Run) (context.Context, net.Addr) {
	t.Helper()
	browser := testbin.Chromium(t)
	s, err := New(runs, prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 55*time.Second)
	t.Cleanup(cancel)
	srvCtx, stopServer := context.WithCancel(ctx)
	addrs := make(chan net.Addr, 1)
	served := make(chan error, 1)
	go func() {
		served <- ListenAndServe(srvCtx, "127.0.0.1:0", s.Handler(), func(a net.Addr) { addrs <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-served:
		t.Fatalf("serve: %v", err)
	}
	t.Cleanup(func() {
		stopServer()
		if err := <-served; err != nil {
			t.Errorf("server: %v", err)
		}
	})

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)

	// Every uncaught exception of the page's scripts fails the test.
	var mu sync.Mutex
	var exceptions []string
	if err := chromedp.Listen(tab, func(ev any) {
		if ev, ok := ev.(*runtime.EventExceptionThrown); ok {
			mu.Lock()
			exceptions = append(exceptions, ev.ExceptionDetails.Text+" "+exceptionDescription(ev))
			mu.Unlock()
		}
	}); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, x := range exceptions {
			t.Errorf("the page threw: %s", x)
		}
	})
	return tab, addr
}

// TestBrowserMovesOfEveryGame plays a move of each player of Domineering
// and Amazons by clicking its squares on the board (a domino's two
// squares; an amazon, its destination and its arrow's square): the page
// then shows the position the table gives for the move.
func TestBrowserMovesOfEveryGame(t *testing.T) {
	var runs []Run
	for _, c := range [][2]string{{"domineering", "3x3"}, {"amazons", "2x4"}} {
		tb, err := probetest.Table(c[0], c[1], "", true)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, tb)
	}
	tab, addr := openBrowser(t, runs...)
	for _, run := range runs {
		e := &explorer{t: t, ctx: tab, run: run}
		info := run.Info()
		pos := info.Start
		for _, p := range []probe.Player{probe.Left, probe.Right} {
			e.do("load "+pos, chromedp.Navigate(fmt.Sprintf("http://%s/runs/%s/?%s", addr, info.Name,
				url.Values{"d": {pos}, "to_move": {p.String()}}.Encode())))
			a := e.check(e.waitShown(pos, p), pos, p)
			moves := a.Moves[p.String()]
			if len(moves) == 0 {
				t.Fatalf("%s %s: %s has no move", info.Name, pos, p)
			}
			// The last move listed, not the first: its squares are not
			// those of the best move highlighted already.
			m := moves[len(moves)-1]
			for _, sq := range m.Squares {
				e.do(fmt.Sprintf("%s: click square %d of %s", info.Name, sq, m.Move),
					chromedp.Click(chromedp.CSS(fmt.Sprintf(`svg [data-square="%d"]`, sq))))
			}
			e.check(e.waitShown(m.Diagram, p.Other()), m.Diagram, p.Other())
			pos = m.Diagram
		}
	}
}

// TestBrowserExplorer drives the position explorer in a headless
// chromium: a position linked by URL, a move played on the board, undo,
// redo and the browser's back button, a bad position pasted, and a game
// against census to its end.
func TestBrowserExplorer(t *testing.T) {
	run := browserRun(t)
	info := run.Info()
	tab, addr := openBrowser(t, run)
	e := &explorer{t: t, ctx: tab, run: run}
	base := fmt.Sprintf("http://%s/runs/%s/", addr, info.Name)

	// 1. A position linked by URL.
	p0 := startPosition(t, run)
	e.do("load "+p0, chromedp.Navigate(base+"?"+url.Values{"d": {p0}, "to_move": {"left"}}.Encode()))
	shown0 := e.waitShown(p0, probe.Left)
	a0 := e.check(shown0, p0, probe.Left)
	e.checkURL(shown0, p0, probe.Left)
	if shown0.Result != "win" {
		t.Fatalf("%s: Left to move does not win", p0)
	}
	shot := e.screenshot("explorer.png")
	if dst := os.Getenv("CENSUS_SCREENSHOT"); dst != "" {
		png, err := os.ReadFile(shot)
		if err == nil {
			err = os.WriteFile(dst, png, 0o644)
		}
		if err != nil {
			t.Errorf("CENSUS_SCREENSHOT: %v", err)
		}
	}

	// 2. A winning move played by clicking its squares on the board.
	win := a0.Moves["left"][0]
	if win.Result != "win" {
		t.Fatalf("%s: Left's best move %s does not win", p0, win.Move)
	}
	for _, sq := range win.Squares {
		e.do(fmt.Sprintf("click square %d of %s", sq, win.Move),
			chromedp.Click(chromedp.CSS(fmt.Sprintf(`svg [data-square="%d"]`, sq))))
	}
	shown1 := e.waitShown(win.Diagram, probe.Right)
	e.check(shown1, win.Diagram, probe.Right)
	e.checkURL(shown1, win.Diagram, probe.Right)
	if shown1.Result != "loss" {
		t.Errorf("after the winning move %s, Right to move shows %s, want loss", win.Move, shown1.Result)
	}

	// 3. Undo, redo, and the browser's back button.
	e.do("undo", chromedp.Click(chromedp.CSS("#undo")))
	e.checkURL(e.waitShown(p0, probe.Left), p0, probe.Left)
	e.do("redo", chromedp.Click(chromedp.CSS("#redo")))
	e.checkURL(e.waitShown(win.Diagram, probe.Right), win.Diagram, probe.Right)
	e.do("back", chromedp.NavigateBack())
	e.check(e.waitShown(p0, probe.Left), p0, probe.Left)
	e.checkURL(e.shown(), p0, probe.Left)

	// 4. A position pasted that the run does not hold: its error is shown
	// and the position stays.
	e.do("paste a position", chromedp.SetValue(chromedp.CSS("#diagram-input"), "xxx/xxx/xxx"),
		chromedp.Click(chromedp.CSS(`#diagram-form button[type="submit"]`)))
	if _, err := chromedp.Run(e.ctx, chromedp.Poll[bool](`document.body.dataset.state === "error"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("no error shown for a position not in the run: %+v", e.shown())
	}
	if got := e.shown(); !strings.Contains(got.Error, "not in the run") || got.Diagram != p0 {
		t.Errorf("after pasting xxx/xxx/xxx: error %q, board %s; want \"not in the run\" and %s", got.Error, got.Diagram, p0)
	}

	// 5. Against census, as Left, always playing the best move.
	e.do("play against census", chromedp.SetValue(chromedp.CSS("#vs-side"), "left"), chromedp.Click(chromedp.CSS("#play-vs")))
	plies := 0
	cur := e.shown()
	for !cur.Over {
		if plies > 2*len(info.Start) {
			t.Fatalf("no end after %d moves", plies)
		}
		if cur.ToMove != "left" {
			t.Fatalf("census did not answer: %+v", cur)
		}
		before := cur.Diagram
		e.do("click the best move", chromedp.Click(chromedp.CSS("#moves .move")))
		plies++
		cur = e.waitFor("census's answer", fmt.Sprintf(`document.querySelector("#board").dataset.diagram !== %s && `+
			`(document.body.dataset.over === "true" || document.querySelector("#to-move").dataset.toMove === "left")`, jsString(before)))
		if cur.ToMove == "left" {
			plies++
		}
	}
	final := probe.Left
	if cur.ToMove == "right" {
		final = probe.Right
	}
	e.check(cur, cur.Diagram, final)
	e.checkURL(cur, cur.Diagram, final)
	if final != probe.Right || cur.Result != "loss" || cur.Remoteness != 0 {
		t.Errorf("the game ended at %s with %s to move, shown %s in %d; want Right to move, lost", cur.Diagram, final, cur.Result, cur.Remoteness)
	}
	if !strings.Contains(cur.GameOver, "Game over") || !strings.Contains(cur.GameOver, "You won") {
		t.Errorf("game over message %q, want Game over ... You won", cur.GameOver)
	}
	if plies != a0.LeftFirst.Remoteness {
		t.Errorf("the game took %d moves, want the start's remoteness %d", plies, a0.LeftFirst.Remoteness)
	}
	over := e.screenshot("game-over.png")
	if dst := os.Getenv("CENSUS_SCREENSHOT"); dst != "" {
		// Beside it, for a look at the end of a game: NAME-game-over.png.
		png, err := os.ReadFile(over)
		if err == nil {
			err = os.WriteFile(strings.TrimSuffix(dst, ".png")+"-game-over.png", png, 0o644)
		}
		if err != nil {
			t.Errorf("CENSUS_SCREENSHOT: %v", err)
		}
	}
}

func exceptionDescription(ev *runtime.EventExceptionThrown) string {
	if ev.ExceptionDetails.Exception != nil {
		return ev.ExceptionDetails.Exception.Description
	}
	return ""
}
