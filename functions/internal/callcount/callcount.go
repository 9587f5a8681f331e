// Package callcount counts the DynamoDB calls a piece of work makes, with a middleware on
// the SDK's stack (store.Config.APIOptions): one per API call, counted at the Initialize
// step, and the HTTP attempts they took, counted after the SDK's retry step. The benches
// (cmd/benchorders, cmd/benchcalls) and the round-trip tests read their figures from it:
// counted, not estimated.
package callcount

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go/middleware"
)

// Counter counts the operations of every client whose stack it is added to.
type Counter struct {
	mu       sync.Mutex
	ops      map[string]int
	attempts int
}

// New answers a counter with nothing counted.
func New() *Counter { return &Counter{ops: map[string]int{}} }

// Middleware adds the counter to a client's stack: give it to store.Config.APIOptions.
func (c *Counter) Middleware(stack *middleware.Stack) error {
	if err := stack.Initialize.Add(middleware.InitializeMiddlewareFunc("callcountOperation",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			c.mu.Lock()
			c.ops[awsmiddleware.GetOperationName(ctx)]++
			c.mu.Unlock()
			return next.HandleInitialize(ctx, in)
		}), middleware.Before); err != nil {
		return err
	}
	return stack.Finalize.Insert(middleware.FinalizeMiddlewareFunc("callcountAttempt",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			c.mu.Lock()
			c.attempts++
			c.mu.Unlock()
			return next.HandleFinalize(ctx, in)
		}), "Retry", middleware.After)
}

// Reset forgets what was counted.
func (c *Counter) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ops, c.attempts = map[string]int{}, 0
}

// Take answers what was counted since the last Reset (or Take) and starts again.
func (c *Counter) Take() Count {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := Count{Ops: c.ops, Attempts: c.attempts}
	for _, n := range c.ops {
		out.Total += n
	}
	c.ops, c.attempts = map[string]int{}, 0
	return out
}

// Count is the calls of one piece of work.
type Count struct {
	Total    int            // DynamoDB API calls
	Attempts int            // HTTP attempts they took (more than Total: retries)
	Ops      map[string]int // calls per operation (GetItem, BatchGetItem, ...)
}

// Kinds answers "Operation n" per operation, most first (then by name).
func (c Count) Kinds() []string {
	kinds := make([]string, 0, len(c.Ops))
	for op, n := range c.Ops {
		kinds = append(kinds, fmt.Sprintf("%s %d", op, n))
	}
	slices.SortFunc(kinds, func(a, b string) int {
		na, nb := c.Ops[a[:strings.LastIndex(a, " ")]], c.Ops[b[:strings.LastIndex(b, " ")]]
		if na != nb {
			return nb - na
		}
		return strings.Compare(a, b)
	})
	return kinds
}

// Breakdown is Kinds joined: "BatchGetItem 2, UpdateItem 1"; "none" for no call.
func (c Count) Breakdown() string {
	if c.Total == 0 {
		return "none"
	}
	return strings.Join(c.Kinds(), ", ")
}

// Sizes reads a bench's list of sizes, such as "1,20,200": whole numbers of at least 1,
// comma separated; what names them in the error ("basket size", "order size").
func Sizes(list, what string) ([]int, error) {
	var ns []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad %s %q", what, s)
		}
		ns = append(ns, n)
	}
	return ns, nil
}
