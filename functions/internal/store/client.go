package store

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/schema"
)

// ErrNotFound is returned when an item that was asked for by key does not exist.
var ErrNotFound = errors.New("not found")

// ErrUnavailable is returned (wrapped, with the call's own error) when a DynamoDB call
// did not answer within the store's deadline or could not reach the table at all: the
// caller answers "try again in a moment" (503), not "something went wrong" (500).
var ErrUnavailable = errors.New("the store did not answer in time")

// UnavailableMessage is the sentence a caller answers with ErrUnavailable's 503.
const UnavailableMessage = "The shop's database did not answer in time. Please try again in a moment."

// DefaultTableName is the table name used when TABLE_NAME is not set.
const DefaultTableName = "tradeshop"

// DefaultTimeout is each DynamoDB call's deadline when STORE_TIMEOUT_MS is not set: the
// whole call, the SDK's retries and their back-off included.
const DefaultTimeout = 3 * time.Second

// The bounds STORE_TIMEOUT_MS is held to: below 100 ms a healthy call on a loaded machine
// would fail; above a minute a buyer has long given up (and API Gateway gives up at 30 s).
const (
	minTimeout = 100 * time.Millisecond
	maxTimeout = time.Minute
)

// adminTimeout is the deadline of the calls that create, delete or configure the table,
// which no buyer waits for.
const adminTimeout = 30 * time.Second

// Retries of one call, all inside its deadline: at most this many attempts, with
// back-off between them of at most maxBackoff (the SDK's default would be 20 s).
const (
	maxAttempts = 3
	maxBackoff  = 250 * time.Millisecond
)

// Config is what the store needs from the environment.
type Config struct {
	TableName string
	Endpoint  string // DYNAMODB_ENDPOINT: set locally (DynamoDB Local), empty on AWS
	Region    string
	// Timeout is each call's deadline (STORE_TIMEOUT_MS); zero means DefaultTimeout.
	Timeout time.Duration
	// APIOptions are added to every DynamoDB call's middleware stack (tests use them to
	// see which operations an endpoint makes).
	APIOptions []func(*middleware.Stack) error
	// Patience is how a batch tool's client sends a call again that missed its deadline
	// (BatchConfigFromEnv); zero for the functions that answer buyers.
	Patience Patience
	// PriceGroupCache is how long the process keeps the price groups it read
	// (PRICE_GROUP_CACHE_SECONDS): 0 is DefaultPriceGroupCache, a negative value no cache.
	PriceGroupCache time.Duration
	// Now is the price group cache's clock; nil is time.Now (tests move it on).
	Now func() time.Time

	// invalid is why the environment's STORE_TIMEOUT_MS or PRICE_GROUP_CACHE_SECONDS was refused; Open and NewClient
	// answer it, so a bad value stops the process at start, not at the first call.
	invalid error
}

// ConfigFromEnv reads TABLE_NAME, DYNAMODB_ENDPOINT, AWS_REGION, STORE_TIMEOUT_MS and
// PRICE_GROUP_CACHE_SECONDS through getenv. A STORE_TIMEOUT_MS that is not a whole number
// of milliseconds from 100 to 60000, or a PRICE_GROUP_CACHE_SECONDS that is not one of
// seconds from 0 to 60, makes Open and NewClient fail, saying so.
func ConfigFromEnv(getenv func(string) string) Config {
	c := Config{TableName: getenv("TABLE_NAME"), Endpoint: getenv("DYNAMODB_ENDPOINT"), Region: getenv("AWS_REGION")}
	if c.TableName == "" {
		c.TableName = DefaultTableName
	}
	if c.Region == "" {
		c.Region = "eu-west-2"
	}
	c.Timeout, c.invalid = parseTimeout(getenv("STORE_TIMEOUT_MS"))
	var cacheErr error
	c.PriceGroupCache, cacheErr = parsePriceGroupCache(getenv("PRICE_GROUP_CACHE_SECONDS"))
	c.invalid = errors.Join(c.invalid, cacheErr)
	return c
}

// parsePriceGroupCache reads PRICE_GROUP_CACHE_SECONDS: empty is the default (60), 0 no
// cache (a negative Config value), else a whole number of seconds up to 60.
func parsePriceGroupCache(v string) (time.Duration, error) {
	if v == "" {
		return DefaultPriceGroupCache, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || time.Duration(n)*time.Second > DefaultPriceGroupCache {
		return 0, fmt.Errorf("PRICE_GROUP_CACHE_SECONDS must be a whole number of seconds from 0 to %d, not %q", int(DefaultPriceGroupCache.Seconds()), v)
	}
	if n == 0 {
		return -1, nil
	}
	return time.Duration(n) * time.Second, nil
}

// parseTimeout reads STORE_TIMEOUT_MS: empty is the default.
func parseTimeout(v string) (time.Duration, error) {
	if v == "" {
		return DefaultTimeout, nil
	}
	ms, err := strconv.Atoi(v)
	d := time.Duration(ms) * time.Millisecond
	if err != nil || d < minTimeout || d > maxTimeout {
		return 0, fmt.Errorf("STORE_TIMEOUT_MS must be a whole number of milliseconds from %d to %d, not %q",
			minTimeout.Milliseconds(), maxTimeout.Milliseconds(), v)
	}
	return d, nil
}

// Store is the shop's table.
type Store struct {
	db    *dynamodb.Client
	table string
	// groups is this process's cache of the price groups (pricegroups.go).
	groups *groupCache
}

// Open makes a Store on the client NewClient makes.
func Open(ctx context.Context, c Config) (*Store, error) {
	db, err := NewClient(ctx, c)
	if err != nil {
		return nil, err
	}
	return &Store{db: db, table: c.TableName, groups: newGroupCache(c.PriceGroupCache, c.Now)}, nil
}

// NewClient makes the DynamoDB client a Store uses. With an endpoint (DynamoDB Local) it
// uses fixed local credentials so no AWS profile is needed; without one it uses the
// standard AWS credential chain. Tests of the engine itself use it directly.
//
// Every call it makes has a deadline (c.Timeout) that covers the SDK's bounded retries;
// a call that misses it or cannot reach the table is an error that is ErrUnavailable,
// unless c.Patience sends it again and a later try answers.
func NewClient(ctx context.Context, c Config) (*dynamodb.Client, error) {
	if c.invalid != nil {
		return nil, c.invalid
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	if timeout < minTimeout || timeout > maxTimeout {
		return nil, fmt.Errorf("store timeout %v is outside %v to %v", timeout, minTimeout, maxTimeout)
	}
	opts := []func(*config.LoadOptions) error{config.WithRegion(c.Region)}
	if len(c.APIOptions) > 0 {
		opts = append(opts, config.WithAPIOptions(c.APIOptions))
	}
	if c.Endpoint != "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("local", "local", "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("load aws config: %w", err)
	}
	// options are the client's: a deadline on every call, bounded retries, and locally
	// the endpoint; barrier (a second client's reads) follows each transaction locally.
	options := func(barrier *dynamodb.Client) func(*dynamodb.Options) {
		return func(o *dynamodb.Options) {
			o.Retryer = retry.NewStandard(func(r *retry.StandardOptions) {
				r.MaxAttempts = maxAttempts
				r.MaxBackoff = maxBackoff
			})
			o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
				if err := s.Initialize.Add(deadline(timeout, c.Patience), middleware.Before); err != nil {
					return err
				}
				return s.Finalize.Insert(throttleCount, "Retry", middleware.After)
			})
			if c.Endpoint == "" {
				return
			}
			o.BaseEndpoint = aws.String(c.Endpoint)
			// DynamoDB Local sends no X-Amz-Crc32 header on an error answer (the cloud
			// always does), and the SDK then checks the body against 0 and logs a warning
			// for every failed condition. Over loopback the checksum guards nothing; in the
			// cloud it stays on.
			o.DisableValidateResponseChecksum = true
			if barrier != nil {
				// DynamoDB Local answers a transaction before it commits (commit_barrier.go).
				// Inside the deadline: the read counts against the transaction's own time.
				o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
					return s.Initialize.Add(commitBarrier(barrier), middleware.After)
				})
			}
		}
	}
	if c.Endpoint == "" {
		return dynamodb.NewFromConfig(cfg, options(nil)), nil
	}
	// The barrier's reads go through a client of their own, without c.APIOptions: the
	// tests that count an endpoint's calls count the calls the cloud would see.
	plain := cfg.Copy()
	plain.APIOptions = nil
	return dynamodb.NewFromConfig(cfg, options(dynamodb.NewFromConfig(plain, options(nil)))), nil
}

// unavailable is a call that missed its deadline or could not reach the table: it is
// ErrUnavailable and, for errors.As, still the SDK's own error.
type unavailable struct {
	timeout time.Duration
	err     error
}

func (e *unavailable) Error() string {
	return fmt.Sprintf("store did not answer within %v: %v", e.timeout, e.err)
}

func (e *unavailable) Unwrap() []error { return []error{ErrUnavailable, e.err} }

// deadline is the first Initialize-step middleware of every call: it gives the call
// (serialising, signing, each attempt and the back-off between them, reading the answer)
// one context deadline, and marks a call that ran out of it, or that could not send its
// request at all (connection refused or reset, after the retries), as ErrUnavailable. A
// call whose caller gave up first (the request's own context ended) keeps its error.
// With patience (batch tools), a repeatable call that missed its deadline is sent again.
func deadline(timeout time.Duration, patience Patience) middleware.InitializeMiddleware {
	return middleware.InitializeMiddlewareFunc("StoreDeadline", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		limit := timeout
		switch in.Parameters.(type) {
		case *dynamodb.CreateTableInput, *dynamodb.DeleteTableInput, *dynamodb.UpdateTimeToLiveInput:
			// Managing the table (seed, tests, first start) is no buyer's request, and
			// DynamoDB Local on disk can take seconds to create a table on a busy machine.
			limit = max(timeout, adminTimeout)
		}
		return patience.patiently(ctx, in, func() (middleware.InitializeOutput, middleware.Metadata, error) {
			callCtx, cancel := context.WithTimeout(ctx, limit)
			defer cancel()
			out, md, err := next.HandleInitialize(callCtx, in)
			if err != nil && ctx.Err() == nil {
				var send *smithyhttp.RequestSendError
				if errors.Is(callCtx.Err(), context.DeadlineExceeded) || errors.As(err, &send) {
					err = &unavailable{timeout: limit, err: err}
					metrics.Add(ctx, metrics.StoreTimeouts, 1)
				}
			}
			return out, md, err
		})
	})
}

// throttleCodes are the error codes of an attempt the table (or DynamoDB's request
// limits) throttled.
var throttleCodes = []string{"ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"}

// throttleCount counts each attempt of a call the table throttled (StoreThrottles, on the
// line of the request or job making it), the SDK's retries included: it sits inside the
// retry loop, after its Retry step.
var throttleCount = middleware.FinalizeMiddlewareFunc("StoreThrottleCount",
	func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
		out, md, err := next.HandleFinalize(ctx, in)
		var api smithy.APIError
		if err != nil && errors.As(err, &api) && slices.Contains(throttleCodes, api.ErrorCode()) {
			metrics.Add(ctx, metrics.StoreThrottles, 1)
		}
		return out, md, err
	})

// TableName is the name of the table this store uses.
func (s *Store) TableName() string { return s.table }

// EnsureTable creates the table from the schema if it does not exist and waits until
// it is active; a table made before an index was added to the schema gets the index
// (local stores: on AWS the CDK app owns the table). It is safe to call on every start.
func (s *Store) EnsureTable(ctx context.Context) (created bool, err error) {
	desc, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)})
	if err == nil {
		return false, s.addMissingIndexes(ctx, desc.Table)
	}
	var missing *types.ResourceNotFoundException
	if !errors.As(err, &missing) {
		return false, fmt.Errorf("describe table %s: %w", s.table, err)
	}
	tbl, err := schema.Load()
	if err != nil {
		return false, err
	}
	if _, err := s.db.CreateTable(ctx, tbl.CreateTableInput(s.table)); err != nil {
		var inUse *types.ResourceInUseException
		if !errors.As(err, &inUse) {
			return false, fmt.Errorf("create table %s: %w", s.table, err)
		}
	}
	waiter := dynamodb.NewTableExistsWaiter(s.db, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 100 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)}, time.Minute); err != nil {
		return false, fmt.Errorf("wait for table %s: %w", s.table, err)
	}
	if tbl.TimeToLiveAttribute != "" {
		// Only a table made here (locally) gets TTL from this; on AWS the CDK app owns it.
		_, err := s.db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
			TableName: aws.String(s.table),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{
				AttributeName: aws.String(tbl.TimeToLiveAttribute), Enabled: aws.Bool(true),
			},
		})
		if err != nil {
			return true, fmt.Errorf("enable TTL on %s: %w", s.table, err)
		}
	}
	return true, nil
}

// DeleteTable removes the table; tests use it to clean up after themselves.
func (s *Store) DeleteTable(ctx context.Context) error {
	_, err := s.db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(s.table)})
	if err != nil {
		return fmt.Errorf("delete table %s: %w", s.table, err)
	}
	return nil
}

// addMissingIndexes creates each index of the schema the table lacks, one at a time (as
// DynamoDB allows), and waits until it is active.
func (s *Store) addMissingIndexes(ctx context.Context, table *types.TableDescription) error {
	tbl, err := schema.Load()
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, ix := range table.GlobalSecondaryIndexes {
		have[aws.ToString(ix.IndexName)] = true
	}
	full := tbl.CreateTableInput(s.table)
	for _, ix := range full.GlobalSecondaryIndexes {
		if have[aws.ToString(ix.IndexName)] {
			continue
		}
		_, err := s.db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(s.table),
			AttributeDefinitions: full.AttributeDefinitions,
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
				IndexName: ix.IndexName, KeySchema: ix.KeySchema, Projection: ix.Projection}}}})
		if err != nil {
			return fmt.Errorf("add index %s to %s: %w", aws.ToString(ix.IndexName), s.table, err)
		}
		for i := 0; ; i++ {
			out, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)})
			if err != nil {
				return fmt.Errorf("wait for index %s: %w", aws.ToString(ix.IndexName), err)
			}
			active := false
			for _, g := range out.Table.GlobalSecondaryIndexes {
				if aws.ToString(g.IndexName) == aws.ToString(ix.IndexName) && g.IndexStatus == types.IndexStatusActive {
					active = true
				}
			}
			if active {
				break
			}
			if i == 600 {
				return fmt.Errorf("index %s of %s is not active after a minute", aws.ToString(ix.IndexName), s.table)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	return nil
}

// CheckLocal refuses a store that is not local unless allowAWS: the endpoint must be a
// loopback address (DynamoDB Local), else writing what (such as "the seed catalogue")
// would go to a deployed table (docs/infrastructure.md "First deploy").
func CheckLocal(c Config, allowAWS bool, what string) error {
	if allowAWS {
		return nil
	}
	if c.Endpoint == "" {
		return fmt.Errorf("DYNAMODB_ENDPOINT is not set, so this would write %s to AWS DynamoDB (table %s in %s): set DYNAMODB_ENDPOINT to a local store, or pass -allow-aws to write to a deployed table on purpose", what, c.TableName, c.Region)
	}
	u, err := url.Parse(c.Endpoint)
	if err != nil || u.Hostname() == "" {
		return fmt.Errorf("DYNAMODB_ENDPOINT %q is not a URL such as http://127.0.0.1:8000", c.Endpoint)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || host == "localhost" {
		return nil
	}
	return fmt.Errorf("DYNAMODB_ENDPOINT %s is not a loopback address, so this would write %s to a store elsewhere (table %s): pass -allow-aws to write to it on purpose", c.Endpoint, what, c.TableName)
}
