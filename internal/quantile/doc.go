// Package quantile owns the one nearest-rank quantile kitsoki reports
// ([NearestRank]: trace stats' p50/p95 latency, eval summaries' p50–p99
// latency and p95 cost). It must not sort, collect or round the values, nor
// decide what an empty set reports: its callers (pkg/trace's Stats, pkg/eval's
// candidate summary) keep that.
package quantile
