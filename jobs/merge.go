package jobs

// mergeSorted merges sorted sources into one sorted stream, calling emit for
// every item of every source in order (repeats included). A source returns
// ok false when it is exhausted.
func mergeSorted[T any](sources []func() (T, bool, error), cmp func(a, b T) int, emit func(T) error) error {
	type head struct {
		v   T
		src int
	}
	h := make([]head, 0, len(sources))
	less := func(i, j int) bool { return cmp(h[i].v, h[j].v) < 0 }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			m := l
			if r := l + 1; r < len(h) && less(r, l) {
				m = r
			}
			if !less(m, i) {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	for i, next := range sources {
		v, ok, err := next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, head{v, i})
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for len(h) > 0 {
		if err := emit(h[0].v); err != nil {
			return err
		}
		v, ok, err := sources[h[0].src]()
		if err != nil {
			return err
		}
		if ok {
			h[0].v = v
		} else {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
	return nil
}
