package jobs

import (
	"reflect"
	"testing"
)

// TestKindsCoverJob checks that kinds has one entry for each field of Job
// and of Result (Cost aside), so that a new kind of job cannot be added to
// the messages without its task and output.
func TestKindsCoverJob(t *testing.T) {
	jt, rt := reflect.TypeFor[Job](), reflect.TypeFor[Result]()
	if jt.NumField() != len(kinds) {
		t.Fatalf("Job has %d fields, kinds %d entries", jt.NumField(), len(kinds))
	}
	labels := map[string]bool{}
	for i := range jt.NumField() {
		var j Job
		f := reflect.ValueOf(&j).Elem().Field(i)
		f.Set(reflect.New(f.Type().Elem()))
		label := j.Label()
		if label == "unknown" || labels[label] {
			t.Errorf("Job.%s alone: label %q, want a label of its own", jt.Field(i).Name, label)
		}
		labels[label] = true
		if j.Spec() == nil || j.ID() == "empty" || j.Key() == "empty" {
			t.Errorf("Job.%s alone: spec %v, ID %q, key %q", jt.Field(i).Name, j.Spec(), j.ID(), j.Key())
		}

		var r Result
		name := jt.Field(i).Name
		rf := reflect.ValueOf(&r).Elem().FieldByName(name)
		if !rf.IsValid() {
			t.Errorf("Result has no field %s", name)
			continue
		}
		rf.Set(reflect.New(rf.Type().Elem()))
		if r.output() == nil {
			t.Errorf("Result.%s alone has no output", name)
		}
	}
	if rt.NumField() != len(kinds)+1 {
		t.Errorf("Result has %d fields, want one a kind and Cost", rt.NumField())
	}
	var empty Job
	if empty.Label() != "unknown" || empty.ID() != "empty" || empty.Spec() != nil || empty.task() != nil {
		t.Errorf("the empty job: label %q, ID %q", empty.Label(), empty.ID())
	}
}

// TestProducesCopies checks that listing what a tier job produced leaves
// the result's slices as they were.
func TestProducesCopies(t *testing.T) {
	next := make([]Blob, 1, 4)
	next[0] = Blob{Name: "n"}
	pieces := make([]Blob, 1, 4)
	pieces[0] = Blob{Name: "p"}
	table := Blob{Name: "t"}
	r := Result{Piece: &PieceResult{Classes: pieces, Table: &table}}
	if got := r.Produces(); !reflect.DeepEqual(got, []string{"p", "t"}) {
		t.Errorf("piece result produces %v", got)
	}
	if got := pieces[:2][1]; got.Name != "" {
		t.Errorf("Produces wrote %q into the spare capacity of the classes", got.Name)
	}
	r = Result{Tier: &TierResult{Next: next, Pieces: pieces, Kept: &table}}
	if got := r.Produces(); !reflect.DeepEqual(got, []string{"n", "p", "t"}) {
		t.Errorf("tier result produces %v", got)
	}
	if next[:2][1].Name != "" {
		t.Errorf("Produces wrote into the spare capacity of Next")
	}
}
