//go:build race

package hugepages

// raceEnabled: the race detector's shadow memory is mapped like the heap
// and mostly never touched; huge pages would fill it.
const raceEnabled = true
