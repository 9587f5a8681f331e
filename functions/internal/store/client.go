package store

import (
	"context"
	"errors"
	"fmt"
	"github.com/aws/smithy-go/middleware"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/schema"
)

// ErrNotFound is returned when an item that was asked for by key does not exist.
var ErrNotFound = errors.New("not found")

// DefaultTableName is the table name used when TABLE_NAME is not set.
const DefaultTableName = "tradeshop"

// Config is what the store needs from the environment.
type Config struct {
	TableName string
	Endpoint  string // DYNAMODB_ENDPOINT: set locally (DynamoDB Local), empty on AWS
	Region    string
	// APIOptions are added to every DynamoDB call's middleware stack (tests use them to
	// see which operations an endpoint makes).
	APIOptions []func(*middleware.Stack) error
}

// ConfigFromEnv reads TABLE_NAME, DYNAMODB_ENDPOINT and AWS_REGION through getenv.
func ConfigFromEnv(getenv func(string) string) Config {
	c := Config{TableName: getenv("TABLE_NAME"), Endpoint: getenv("DYNAMODB_ENDPOINT"), Region: getenv("AWS_REGION")}
	if c.TableName == "" {
		c.TableName = DefaultTableName
	}
	if c.Region == "" {
		c.Region = "eu-west-2"
	}
	return c
}

// Store is the shop's table.
type Store struct {
	db    *dynamodb.Client
	table string
}

// Open makes a Store on the client NewClient makes.
func Open(ctx context.Context, c Config) (*Store, error) {
	db, err := NewClient(ctx, c)
	if err != nil {
		return nil, err
	}
	return &Store{db: db, table: c.TableName}, nil
}

// NewClient makes the DynamoDB client a Store uses. With an endpoint (DynamoDB Local) it
// uses fixed local credentials so no AWS profile is needed; without one it uses the
// standard AWS credential chain. Tests of the engine itself use it directly.
func NewClient(ctx context.Context, c Config) (*dynamodb.Client, error) {
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
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if c.Endpoint != "" {
			o.BaseEndpoint = aws.String(c.Endpoint)
			// DynamoDB Local sends no X-Amz-Crc32 header on an error answer (the cloud
			// always does), and the SDK then checks the body against 0 and logs a warning
			// for every failed condition. Over loopback the checksum guards nothing; in the
			// cloud it stays on.
			o.DisableValidateResponseChecksum = true
		}
	}), nil
}

// TableName is the name of the table this store uses.
func (s *Store) TableName() string { return s.table }

// EnsureTable creates the table from the schema if it does not exist and waits until
// it is active. It is safe to call on every start.
func (s *Store) EnsureTable(ctx context.Context) (created bool, err error) {
	_, err = s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)})
	if err == nil {
		return false, nil
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
