package broker

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrStoreFull is returned when the NATS server refuses to store a message
// or record for want of room: its JetStream store, or the account's share
// of it, is full. Retrying does not help until someone makes room.
var ErrStoreFull = errors.New("the NATS server has no room left to store")

// The JetStream API error codes of a full store.
const (
	codeAccountResourcesExceeded jetstream.ErrorCode = 10002
	codeInsufficientResources    jetstream.ErrorCode = 10023
	codeMemoryResourcesExceeded  jetstream.ErrorCode = 10028
	codeStorageResourcesExceeded jetstream.ErrorCode = 10047
)

// StoreFull returns err wrapped with ErrStoreFull when it is the server's
// answer that its store is full, and nil otherwise.
func StoreFull(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrStoreFull) {
		return err
	}
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode {
		case codeAccountResourcesExceeded, codeInsufficientResources, codeMemoryResourcesExceeded, codeStorageResourcesExceeded:
			return fmt.Errorf("%w: %v", ErrStoreFull, err)
		}
	}
	// A stream at its own byte limit answers in words.
	if msg := err.Error(); strings.Contains(msg, "maximum bytes exceeded") || strings.Contains(msg, "insufficient resources") || strings.Contains(msg, "insufficient storage") {
		return fmt.Errorf("%w: %v", ErrStoreFull, err)
	}
	return nil
}
