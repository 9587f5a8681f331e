// Package metrics writes the shop's metrics into its log lines in CloudWatch's Embedded
// Metric Format (EMF): a JSON log line that holds an "_aws" key naming metrics, with the
// metrics' values and dimensions as the line's own keys, becomes CloudWatch metrics when
// Lambda's log reaches CloudWatch Logs, with no agent and no API call. The local edge writes
// the very same lines to its log, where scripts/metrics reads them.
//
// A request (or a job's run) carries a Scope in its context: its request id, the endpoint
// that served it and the metrics recorded while it ran (Add). The log handler (NewHandler)
// puts the build, the request id and the endpoint on every line logged with that context,
// and turns the metrics a line carries (Flush, Record) into the EMF keys.
//
// EMF is specified at
// https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html;
// AWS maintains no Go library for it, so this package encodes it itself and its tests
// check every line against the specification's rules (emf_test.go).
package metrics
