package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/broker"
)

func serverCmd() *cobra.Command {
	var o broker.ServerOptions
	c := &cobra.Command{
		Use:   "server",
		Short: "Run a NATS server with JetStream for census (for clusters that have no NATS yet)",
		Long: `Run a standalone NATS server with JetStream on, from the embedded library, until
SIGINT or SIGTERM. Give --cluster, --routes and distinct --name values to join
servers into a cluster (three servers keep streams and buckets in three
copies). --config reads a nats-server configuration file first (accounts,
users and permissions, TLS).`,
		Example: `  census server --listen 0.0.0.0:4222 --store-dir /var/lib/census-nats
  census server --name n1 --listen 0.0.0.0:4222 --cluster 0.0.0.0:6222 --routes nats://n2:6222,nats://n3:6222`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(c *cobra.Command, args []string) error {
			if o.Routes != "" && o.ClusterListen == "" {
				return usagef("--routes %s needs --cluster, the address this server takes routes on", o.Routes)
			}
			s, err := broker.StartServer(o)
			if err != nil {
				return usageError{err}
			}
			fmt.Fprintf(os.Stderr, "census server %s: NATS with JetStream on %s, store %s\n", s.Name(), s.ClientURL(), s.StoreDir())
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			<-ctx.Done()
			s.Shutdown()
			s.WaitForShutdown()
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Listen, "listen", "127.0.0.1:4222", "client address host:port (0.0.0.0:4222 for every interface)")
	fl.StringVar(&o.StoreDir, "store-dir", "census-nats", "directory of JetStream's streams and buckets")
	fl.StringVar(&o.Name, "name", "", "server name; servers of a cluster need distinct names")
	fl.StringVar(&o.ClusterListen, "cluster", "", "route address host:port to join a cluster")
	fl.StringVar(&o.Routes, "routes", "", "routes of the other servers, comma separated nats://host:port")
	fl.StringVar(&o.ClusterName, "cluster-name", "census", "cluster name")
	fl.StringVar(&o.ConfigFile, "config", "", "nats-server configuration file, read first")
	fl.StringVar(&o.Token, "token", "", "authentication token every client must give")
	fl.BoolVar(&o.Logs, "logs", false, "print the server's log")
	return c
}
