package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// The HTTP server's limits: a slow or idle client holds a connection no
// longer than these.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 60 * time.Second
	maxHeaderBytes    = 16 << 10
	// shutdownGrace is how long the requests in flight at shutdown have
	// to finish.
	shutdownGrace = 10 * time.Second
)

// ListenAndServe serves h on addr until ctx is cancelled, then shuts down
// gracefully: it stops listening and waits (a while) for the requests in
// flight. ready, when not nil, is called with the address listened on
// (addr may ask for port 0) once the server accepts connections. It
// returns nil after a shutdown asked by ctx, and an error when it cannot
// listen on addr (ready is then not called) or when serving fails.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, ready func(addr net.Addr)) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if ready != nil {
		ready(ln.Addr())
	}
	select {
	case err := <-served:
		return fmt.Errorf("serve on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	err = srv.Shutdown(shutdown)
	if serr := <-served; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("shut down the server on %s: %w", ln.Addr(), err)
	}
	return nil
}
