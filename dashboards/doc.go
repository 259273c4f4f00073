// Package dashboards holds the Grafana dashboard, the Prometheus scrape
// configuration and the Grafana provisioning files for census; it has no
// code, only the tests that check those files against a real census and a
// real Prometheus. See README.md in this directory.
package dashboards
