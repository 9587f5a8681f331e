package store

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
)

// DefaultBatchBudget is how long a batch tool keeps trying one call again when
// STORE_BATCH_BUDGET_MS is not set: long enough to ride out a store slowed or paused by a
// busy machine, short enough that a store that is really gone stops the tool.
const DefaultBatchBudget = 2 * time.Minute

// The bounds STORE_BATCH_BUDGET_MS is held to.
const (
	minBatchBudget = time.Second
	maxBatchBudget = time.Hour
)

// Back-off between a batch call's tries: it starts at firstWait and doubles up to maxWait.
const (
	firstWait = 250 * time.Millisecond
	maxWait   = 5 * time.Second
)

// Patience makes a store client of a batch tool (seed, catalogue import, recover,
// ordercheck) ride out a store that stops answering for a while. A call that is safe to
// send again (see repeatable) and fails with ErrUnavailable is sent again, each try with
// its own per-call deadline and with back-off between tries, until Budget has passed since
// its first try. The functions that answer buyers have none (zero Budget): their caller
// is a person waiting, who gets the 503 at once.
type Patience struct {
	Budget time.Duration
	// Notify, if not nil, is told before each wait, so the tool can say so on its
	// progress line. It may be called from several goroutines at once.
	Notify func(Retry)
}

// Retry is one call that did not answer in time and is about to be sent again.
type Retry struct {
	Op       string        // the DynamoDB operation, such as "BatchWriteItem"
	Try      int           // the try that failed, from 1
	Wait     time.Duration // the wait before the next try
	Left     time.Duration // what is left of the budget after the wait
	Budget   time.Duration // the whole budget
	Err      error         // the failed try's error (ErrUnavailable)
	Deadline time.Duration // the per-call deadline the try missed
}

// String is the sentence a tool prints on its progress line.
func (r Retry) String() string {
	return fmt.Sprintf("the store did not answer %s within %v (try %d); trying again in %v, %v of the %v budget left",
		r.Op, r.Deadline, r.Try, r.Wait.Round(time.Millisecond), r.Left.Round(time.Second), r.Budget)
}

// PatienceFromEnv reads STORE_BATCH_BUDGET_MS through getenv (empty: DefaultBatchBudget);
// a value that is not a whole number of milliseconds from 1000 to 3600000 is an error
// naming the variable.
func PatienceFromEnv(getenv func(string) string, notify func(Retry)) (Patience, error) {
	p := Patience{Budget: DefaultBatchBudget, Notify: notify}
	v := getenv("STORE_BATCH_BUDGET_MS")
	if v == "" {
		return p, nil
	}
	ms, err := strconv.Atoi(v)
	p.Budget = time.Duration(ms) * time.Millisecond
	if err != nil || p.Budget < minBatchBudget || p.Budget > maxBatchBudget {
		return Patience{}, fmt.Errorf("STORE_BATCH_BUDGET_MS must be a whole number of milliseconds from %d to %d, not %q",
			minBatchBudget.Milliseconds(), maxBatchBudget.Milliseconds(), v)
	}
	return p, nil
}

// BatchConfigFromEnv is ConfigFromEnv for a batch tool: the store's configuration with
// the Patience of STORE_BATCH_BUDGET_MS, whose retries notify tells of.
func BatchConfigFromEnv(getenv func(string) string, notify func(Retry)) Config {
	c := ConfigFromEnv(getenv)
	p, err := PatienceFromEnv(getenv, notify)
	if err != nil && c.invalid == nil {
		c.invalid = err
	}
	c.Patience = p
	return c
}

// repeatable says whether a call may be sent again when its first try's outcome is
// unknown (it may have been applied, or may still be, by a store that was only paused):
//   - reads change nothing;
//   - BatchWriteItem puts and deletes whole items by key, so a second application leaves
//     the same table;
//   - TransactWriteItems carries a ClientRequestToken, which the SDK sets once on the input
//     every try sends, and DynamoDB applies a transaction once per token (within ten
//     minutes); where it cannot tell (a first try still running), it refuses the second
//     and the callers' conditions, which every transaction of the shop carries, decide;
//   - PutItem and DeleteItem without a condition write or remove a whole item by key.
//
// UpdateItem (which may ADD to a figure) and conditional PutItem and DeleteItem (a second
// try would fail its own condition and read as a refusal) are never sent again here:
// their callers decide what an unknown outcome means (catalogue import: UpdateProducts).
func repeatable(params any) bool {
	switch in := params.(type) {
	case *dynamodb.GetItemInput, *dynamodb.BatchGetItemInput, *dynamodb.QueryInput, *dynamodb.ScanInput,
		*dynamodb.TransactGetItemsInput, *dynamodb.DescribeTableInput, *dynamodb.DescribeTimeToLiveInput,
		*dynamodb.BatchWriteItemInput, *dynamodb.TransactWriteItemsInput:
		return true
	case *dynamodb.PutItemInput:
		return in.ConditionExpression == nil && len(in.Expected) == 0
	case *dynamodb.DeleteItemInput:
		return in.ConditionExpression == nil && len(in.Expected) == 0
	}
	return false
}

// patiently sends a repeatable call again while it fails with ErrUnavailable, as p says;
// try is one try with its own deadline.
func (p Patience) patiently(ctx context.Context, in middleware.InitializeInput, try func() (middleware.InitializeOutput, middleware.Metadata, error)) (middleware.InitializeOutput, middleware.Metadata, error) {
	out, md, err := try()
	if p.Budget <= 0 || !repeatable(in.Parameters) {
		return out, md, err
	}
	start := time.Now()
	wait := firstWait
	for n := 1; isUnavailable(err) && ctx.Err() == nil; n++ {
		left := p.Budget - time.Since(start) - wait
		if left <= 0 {
			return out, md, err
		}
		if p.Notify != nil {
			r := Retry{Op: middleware.GetOperationName(ctx), Try: n, Wait: wait, Left: left, Budget: p.Budget, Err: err}
			if u, ok := err.(*unavailable); ok {
				r.Deadline = u.timeout
			}
			p.Notify(r)
		}
		select {
		case <-ctx.Done():
			return out, md, err
		case <-time.After(wait):
		}
		wait = min(2*wait, maxWait)
		out, md, err = try()
	}
	return out, md, err
}

func isUnavailable(err error) bool {
	_, ok := err.(*unavailable)
	return ok
}
