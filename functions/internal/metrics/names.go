package metrics

// Unit is a CloudWatch unit; only the ones the shop uses.
type Unit string

// The units of the shop's metrics.
const (
	Count        Unit = "Count"
	Milliseconds Unit = "Milliseconds"
	Seconds      Unit = "Seconds"
	None         Unit = "None"
)

// Dimension keys: the log line keys whose values are the metrics' dimensions.
const (
	DimEndpoint = "endpoint"
	DimGroup    = "group"
	DimReason   = "reason"
)

// Metric is one of the shop's metrics: its name, unit and the dimension sets CloudWatch
// files it under (an empty set is the metric with no dimension).
type Metric struct {
	Name       string
	Unit       Unit
	Dimensions [][]string
}

var (
	byEndpointAndGroup = [][]string{{DimEndpoint}, {DimGroup}}
	noDimension        = [][]string{{}}
	overallAndEndpoint = [][]string{{}, {DimEndpoint}}
)

// The shop's metrics (docs/operations.md says what each means and which alarm reads it).
var (
	// Requests, Status4xx, Status5xx (0 or 1 each) and Latency are on the request line of
	// every /api request: a rate is the sum of one over the sum of Requests.
	Requests  = Metric{"Requests", Count, byEndpointAndGroup}
	Status4xx = Metric{"Status4xx", Count, byEndpointAndGroup}
	Status5xx = Metric{"Status5xx", Count, byEndpointAndGroup}
	Latency   = Metric{"Latency", Milliseconds, byEndpointAndGroup}

	// OrdersPlaced and OrderValue (pence, VAT included) are on the request line of an
	// order placed; OrdersRefused, by reason, on that of an order refused.
	OrdersPlaced  = Metric{"OrdersPlaced", Count, noDimension}
	OrderValue    = Metric{"OrderValue", None, noDimension}
	OrdersRefused = Metric{"OrdersRefused", Count, [][]string{{DimReason}}}

	// StoreTimeouts and StoreThrottles count the DynamoDB calls that missed their deadline
	// and the attempts the table throttled, on the line of the request or job.
	StoreTimeouts  = Metric{"StoreTimeouts", Count, overallAndEndpoint}
	StoreThrottles = Metric{"StoreThrottles", Count, overallAndEndpoint}

	// AppErrorReports are the site's error reports recorded, AppErrorReportsRefused those
	// refused past a client's limit (POST /api/errors).
	AppErrorReports        = Metric{"AppErrorReports", Count, noDimension}
	AppErrorReportsRefused = Metric{"AppErrorReportsRefused", Count, noDimension}

	// EmailsSent and EmailsFailed are on each run of the email sender; the outbox gauges
	// once a minute.
	EmailsSent      = Metric{"EmailsSent", Count, noDimension}
	EmailsFailed    = Metric{"EmailsFailed", Count, noDimension}
	OutboxWaiting   = Metric{"OutboxWaiting", Count, noDimension}
	OutboxFailed    = Metric{"OutboxFailed", Count, noDimension}
	OutboxOldestAge = Metric{"OutboxOldestAge", Seconds, noDimension}

	// The order backlogs, on each run of the order sweep: orders still being placed and
	// orders waiting for their invoice, with the age of the oldest (0 when none).
	OrdersPending            = Metric{"OrdersPending", Count, noDimension}
	OrdersPendingOldestAge   = Metric{"OrdersPendingOldestAge", Seconds, noDimension}
	OrdersToInvoice          = Metric{"OrdersToInvoice", Count, noDimension}
	OrdersToInvoiceOldestAge = Metric{"OrdersToInvoiceOldestAge", Seconds, noDimension}
)

// All lists every metric above, for the tests and the docs.
var All = []Metric{Requests, Status4xx, Status5xx, Latency, OrdersPlaced, OrderValue, OrdersRefused,
	StoreTimeouts, StoreThrottles, AppErrorReports, AppErrorReportsRefused,
	EmailsSent, EmailsFailed, OutboxWaiting, OutboxFailed, OutboxOldestAge,
	OrdersPending, OrdersPendingOldestAge, OrdersToInvoice, OrdersToInvoiceOldestAge}
