package main

import (
	"os"
	"time"
)

// Tests shorten the waits of the job queue through the environment; the
// library packages take them as options.
const (
	// envAckWait is how long a job may go without a heartbeat before it
	// is delivered to another worker (at least a second).
	envAckWait = "CENSUS_ACK_WAIT"
	// envRetryDelay is the wait before a failed job's second attempt.
	envRetryDelay = "CENSUS_RETRY_DELAY"
)

// envDuration reads a duration of at least least from the environment
// variable name; zero (take the default) when it is unset or holds no
// such duration.
func envDuration(name string, least time.Duration) time.Duration {
	d, err := time.ParseDuration(os.Getenv(name))
	if err != nil || d < least || d <= 0 {
		return 0
	}
	return d
}

func ackWait() time.Duration    { return envDuration(envAckWait, time.Second) }
func retryDelay() time.Duration { return envDuration(envRetryDelay, time.Nanosecond) }
