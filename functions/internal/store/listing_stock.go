package store

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"golang.org/x/sync/errgroup"

	"github.com/tradeshop/functions/internal/catalogue"
)

// rangeCategoriesInFlight is how many of a range's categories ListingStock reads side by
// side: a range of 30 categories takes about four round trips' time, not 30.
const rangeCategoriesInFlight = 8

// stockFields are the product attributes live availability is told from
// (basket.AvailabilityAt): a listing's stock reads only these of each product.
var stockFields = []string{"sku", "status", "stock", "packSize", "fwd"}

// CategoryStock reads the products of category id (the catalogue index, gsi1, one Query
// a page of it) with only what their availability needs: SKU, status, stock, pack size
// and forward marking. A category with no products costs one GetItem more, to tell an
// empty category from none: ErrNotFound when there is no such category.
func (s *Store) CategoryStock(ctx context.Context, id int) ([]catalogue.Product, error) {
	products, err := s.childrenStock(ctx, prefixCategory+strconv.Itoa(id))
	if err != nil {
		return nil, fmt.Errorf("category %d stock: %w", id, err)
	}
	if len(products) == 0 {
		if _, err := getItem[categoryItem](ctx, s, prefixCategory+strconv.Itoa(id), skItem); err != nil {
			return nil, fmt.Errorf("category %d: %w", id, err)
		}
	}
	return products, nil
}

// RangeStock reads the products of every category of range urlText as CategoryStock
// does: one Query of the catalogue index for the range's categories, then the
// categories' products, rangeCategoriesInFlight at once. A range with no categories
// costs one GetItem more: ErrNotFound when there is no such range.
func (s *Store) RangeStock(ctx context.Context, urlText string) ([]catalogue.Product, error) {
	in, err := s.childrenQuery(prefixRange+urlText, nil)
	if err != nil {
		return nil, err
	}
	cats, err := queryAll[categoryItem](ctx, s, in)
	if err != nil {
		return nil, fmt.Errorf("range %s categories: %w", urlText, err)
	}
	if len(cats) == 0 {
		if _, err := getItem[rangeItem](ctx, s, prefixRange+urlText, skItem); err != nil {
			return nil, fmt.Errorf("range %s: %w", urlText, err)
		}
		return nil, nil
	}
	each := make([][]catalogue.Product, len(cats))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(rangeCategoriesInFlight)
	for i, c := range cats {
		g.Go(func() error {
			ps, err := s.childrenStock(gctx, prefixCategory+strconv.Itoa(c.ID))
			if err != nil {
				return fmt.Errorf("range %s category %d stock: %w", urlText, c.ID, err)
			}
			each[i] = ps
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []catalogue.Product
	for _, ps := range each {
		out = append(out, ps...)
	}
	return out, nil
}

// childrenStock reads the stock fields of the products under gsi1pk (a category's).
func (s *Store) childrenStock(ctx context.Context, gsi1pk string) ([]catalogue.Product, error) {
	names := make([]expression.NameBuilder, len(stockFields))
	for i, f := range stockFields {
		names[i] = expression.Name(f)
	}
	proj := expression.NamesList(names[0], names[1:]...)
	in, err := s.childrenQuery(gsi1pk, &proj)
	if err != nil {
		return nil, err
	}
	items, err := queryAll[productItem](ctx, s, in)
	if err != nil {
		return nil, err
	}
	out := make([]catalogue.Product, len(items))
	for i, it := range items {
		out[i] = it.toProduct()
	}
	return out, nil
}

// childrenQuery is the Query of the catalogue index (gsi1) for the items under gsi1pk,
// with only the attributes of proj when it is not nil.
func (s *Store) childrenQuery(gsi1pk string, proj *expression.ProjectionBuilder) (*dynamodb.QueryInput, error) {
	b := expression.NewBuilder().WithKeyCondition(expression.Key("gsi1pk").Equal(expression.Value(gsi1pk)))
	if proj != nil {
		b = b.WithProjection(*proj)
	}
	expr, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("build %s query: %w", gsi1pk, err)
	}
	return &dynamodb.QueryInput{
		TableName: aws.String(s.table), IndexName: aws.String(indexChildren),
		KeyConditionExpression: expr.KeyCondition(), ProjectionExpression: expr.Projection(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
	}, nil
}
