package jobs

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestProducesListsEveryBlob fills every Blob a result of each kind can
// hold with a distinct name and checks that Produces lists them all: a
// blob left out would not be synced before the job's done-record, and a
// crash could then lose it while the record says it is there.
func TestProducesListsEveryBlob(t *testing.T) {
	kinds := reflect.TypeFor[Result]()
	for f := range kinds.Fields() {
		if f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct || f.Type.Elem() == reflect.TypeFor[Cost]() {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			var r Result
			kind := reflect.New(f.Type.Elem())
			want := fillBlobs(kind.Elem(), f.Name)
			reflect.ValueOf(&r).Elem().FieldByIndex(f.Index).Set(kind)
			got := r.Produces()
			for _, name := range want {
				if !slices.Contains(got, name) {
					t.Errorf("Produces() = %v, missing %s", got, name)
				}
			}
		})
	}
}

// fillBlobs names every Blob, *Blob and []Blob field of v and returns the
// names.
func fillBlobs(v reflect.Value, prefix string) []string {
	blob := reflect.TypeFor[Blob]()
	var names []string
	for i := range v.NumField() {
		f, name := v.Field(i), fmt.Sprintf("%s/%s", prefix, v.Type().Field(i).Name)
		switch {
		case f.Type() == blob:
			f.Set(reflect.ValueOf(Blob{Name: name}))
			names = append(names, name)
		case f.Type() == reflect.PointerTo(blob):
			f.Set(reflect.ValueOf(&Blob{Name: name}))
			names = append(names, name)
		case f.Type() == reflect.SliceOf(blob):
			f.Set(reflect.ValueOf([]Blob{{Name: name + "/0"}, {Name: name + "/1"}}))
			names = append(names, name+"/0", name+"/1")
		}
	}
	return names
}
