package cmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"kitsoki/internal/human"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/fetch"
)

// fetchDisplay shows fetch progress. On a terminal it redraws one status
// line per artifact in place (a progressbar/v3 bar with bytes, speed and
// time left) and clears it before anything else is printed; elsewhere (CI
// logs, TERM=dumb) it prints a plain line every few seconds. Speed and ETA
// count only the bytes moved by this run, never the ones resumed from disk.
// Artifact ids come from a pins file: they are printed through termsafe.
type fetchDisplay struct {
	statusLine
	tty   bool
	every time.Duration
	now   func() time.Time

	start   map[string]time.Time
	last    map[string]time.Time
	verStub map[string]bool // the "verifying" line is printed
	bars    map[string]*progressbar.ProgressBar
}

func newFetchDisplay(w io.Writer) *fetchDisplay {
	return &fetchDisplay{statusLine: statusLine{w: w}, tty: redrawable(w), every: 5 * time.Second, now: time.Now,
		start: map[string]time.Time{}, last: map[string]time.Time{}, verStub: map[string]bool{},
		bars: map[string]*progressbar.ProgressBar{}}
}

// abort erases the status line so that what follows (an error, the
// interrupt message) starts on a line of its own.
func (d *fetchDisplay) abort() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clearLocked()
}

func (d *fetchDisplay) report(p fetch.Progress) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := termsafe.Line(p.Artifact.ID)
	now := d.now()
	switch p.Phase {
	case fetch.PhaseWait:
		d.clearLocked()
		fmt.Fprintf(d.w, "waiting for another kitsoki process fetching %s\n", id)
	case fetch.PhaseVerify:
		d.verifyLocked(id, p)
	case fetch.PhaseMismatch:
		d.clearLocked()
		fmt.Fprintf(d.w, "%s: sha256 mismatch on the cached file, downloading again\n", id)
	case fetch.PhaseStart:
		d.clearLocked()
		fmt.Fprintf(d.w, "downloading %s (%s) from %s\n", id, fetch.HumanSize(p.Total), termsafe.Line(p.Host))
		d.start[id], d.last[id] = now, now
		delete(d.bars, id)
	case fetch.PhaseDownload:
		d.downloadLocked(id, p, now)
	case fetch.PhaseDone:
		d.clearLocked()
		delete(d.bars, id)
		elapsed := now.Sub(d.start[id])
		line := fmt.Sprintf("%s: downloaded %s in %s", id, fetch.ByteCount(p.Done-p.Resumed), human.Duration(elapsed))
		if r := rate(p.Done-p.Resumed, elapsed); r > 0 {
			line += fmt.Sprintf(" (%s/s)", fetch.ByteCount(r))
		}
		if p.Resumed > 0 {
			line += fmt.Sprintf(", resumed after %s already on disk", fetch.ByteCount(p.Resumed))
		}
		fmt.Fprintln(d.w, line)
	}
}

func (d *fetchDisplay) verifyLocked(id string, p fetch.Progress) {
	key := "verify " + id
	if !d.verStub[id] {
		d.verStub[id] = true
		d.clearLocked()
		fmt.Fprintf(d.w, "verifying sha256 of the cached %s (%s)\n", id, fetch.ByteCount(p.Total))
	}
	if p.Done >= p.Total {
		d.clearLocked()
		delete(d.verStub, id)
		delete(d.bars, key)
	} else if d.tty {
		d.barLocked(key, "verifying "+id, p.Total).Set64(p.Done)
		d.drawn = true
	}
}

func (d *fetchDisplay) downloadLocked(id string, p fetch.Progress, now time.Time) {
	if p.Done <= p.Resumed {
		// Nothing moved yet in this run (connecting, retrying a refused
		// connection): no "0 B / 200 MB (0%)", but on a terminal say
		// what it waits for.
		if waited := now.Sub(d.start[id]); d.tty && waited >= time.Second {
			d.drawLocked(fmt.Sprintf("%s waiting for %s  %ds", id, termsafe.Line(p.Host), int(waited.Seconds())))
		}
		return
	}
	if d.tty {
		// The bar counts this run's bytes only, as curl does after a
		// resume: the library's speed and ETA then leave the resumed
		// bytes out.
		label, total := id, p.Total-p.Resumed
		if p.Resumed > 0 {
			label = fmt.Sprintf("%s (resumed after %s)", id, fetch.ByteCount(p.Resumed))
		}
		if p.Total <= 0 {
			total = -1
		}
		if d.drawn && d.bars[id] == nil {
			d.clearLocked() // the "waiting for" line
		}
		d.barLocked(id, label, total).Set64(p.Done - p.Resumed)
		d.drawn = true
		return
	}
	if now.Sub(d.last[id]) < d.every {
		return
	}
	d.last[id] = now
	fmt.Fprintf(d.w, "%s: %s\n", id, progressLine(p, now.Sub(d.start[id])))
}

// barLocked returns the artifact's bar, made on first use. It draws on the
// status line's writer; the status line's lock serialises them.
func (d *fetchDisplay) barLocked(key, label string, total int64) *progressbar.ProgressBar {
	if b := d.bars[key]; b != nil {
		return b
	}
	b := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(d.w),
		progressbar.OptionSetDescription(barLabel(d.w, label)+" "),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionUseANSICodes(true),
		// No ticker goroutine for an unknown size: the bar is redrawn
		// by each report, under the status line's lock.
		progressbar.OptionSetSpinnerChangeInterval(0))
	d.bars[key] = b
	return b
}

// barLabel cuts a label to a third of the terminal's width, so that the
// bar, which shrinks to fit, and its figures still fit on one line.
func barLabel(w io.Writer, label string) string {
	cols := termCols(w)
	keep := max(cols/3, 8)
	if r := []rune(label); cols > 0 && len(r) > keep {
		return string(r[:keep-1]) + "…"
	}
	return label
}

// progressLine is "45%  90.0 MB / 200.0 MB  20.0 MB/s  ETA 6s" (the bytes
// done alone when the size is unknown). elapsed is the time since this
// run's transfer started; speed and ETA use only the bytes moved since
// then (Done - Resumed).
func progressLine(p fetch.Progress, elapsed time.Duration) string {
	var b strings.Builder
	if p.Total > 0 {
		done := min(max(p.Done, 0), p.Total)
		fmt.Fprintf(&b, "%d%%  %s / %s", done*100/p.Total, fetch.ByteCount(done), fetch.ByteCount(p.Total))
	} else {
		b.WriteString(fetch.ByteCount(p.Done))
	}
	if r := rate(p.Done-p.Resumed, elapsed); r > 0 {
		fmt.Fprintf(&b, "  %s/s", fetch.ByteCount(r))
		if p.Total > p.Done {
			eta := time.Duration(float64(p.Total-p.Done) / float64(r) * float64(time.Second))
			fmt.Fprintf(&b, "  ETA %s", etaText(eta))
		}
	}
	return b.String()
}

// rate is bytes per second over elapsed; 0 when nothing can be said.
func rate(moved int64, elapsed time.Duration) int64 {
	if moved <= 0 || elapsed <= 0 {
		return 0
	}
	return int64(float64(moved) / elapsed.Seconds())
}

func etaText(d time.Duration) string {
	switch {
	case d < time.Second:
		return "<1s"
	case d < time.Minute:
		return d.Round(time.Second).String()
	default:
		return d.Round(time.Minute).String()
	}
}
