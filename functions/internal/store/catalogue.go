package store

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// keys are the attributes every catalogue item carries for the table and its indexes.
type keys struct {
	PK     string `dynamodbav:"pk"`
	SK     string `dynamodbav:"sk"`
	GSI1PK string `dynamodbav:"gsi1pk,omitempty"`
	GSI1SK string `dynamodbav:"gsi1sk,omitempty"`
	GSI2PK string `dynamodbav:"gsi2pk,omitempty"`
	GSI2SK string `dynamodbav:"gsi2sk,omitempty"`
	Type   string `dynamodbav:"type"`
}

type rangeItem struct {
	keys
	URLText     string `dynamodbav:"urlText"`
	Name        string `dynamodbav:"name"`
	Description string `dynamodbav:"description"`
	Order       int    `dynamodbav:"order"`
}

type categoryItem struct {
	keys
	ID           int    `dynamodbav:"id"`
	Slug         string `dynamodbav:"slug"`
	Name         string `dynamodbav:"name"`
	Group        string `dynamodbav:"group"`
	RangeURLText string `dynamodbav:"rangeUrlText"`
	Order        int    `dynamodbav:"order"`
}

type productItem struct {
	keys
	SKU          string `dynamodbav:"sku"`
	Slug         string `dynamodbav:"slug"`
	Name         string `dynamodbav:"name"`
	Description  string `dynamodbav:"description"`
	CategoryID   int    `dynamodbav:"categoryId"`
	RangeURLText string `dynamodbav:"rangeUrlText"`
	PackSize     int    `dynamodbav:"packSize"`
	UnitPrice    int64  `dynamodbav:"unitPrice"`
	VATRate      int    `dynamodbav:"vatRate"`
	Stock        int    `dynamodbav:"stock"`
	SmallImg     string `dynamodbav:"smallImg"`
	LargeImg     string `dynamodbav:"largeImg"`
	Status       string `dynamodbav:"status,omitempty"`
	SortOrder    int    `dynamodbav:"sortOrder,omitempty"`
	Barcode      string `dynamodbav:"barcode,omitempty"`
	RRP          int64  `dynamodbav:"rrp,omitempty"`
	// Breaks is the public break table: a list of maps {from, price} or {from, percent}.
	Breaks []breakItem `dynamodbav:"breaks,omitempty"`
	// StockJob is the catalogue import that last set Stock (docs/catalogue-import.md
	// "Stock"): a re-run of that import leaves the stock alone.
	StockJob string `dynamodbav:"stockJob,omitempty"`
	// Forward marks a product sold ahead of its delivery: {from, by, exp}.
	Forward *forwardItem `dynamodbav:"fwd,omitempty"`
	// Facets are the values buyers filter by (docs/catalogue.md "Facets"): a map of
	// lists of value ids, absent when the product has none.
	Facets *facetsItem `dynamodbav:"facets,omitempty"`
	// Published is the London date (ISO) the product was first published; absent when
	// not known.
	Published string `dynamodbav:"published,omitempty"`
}

// facetsItem is a product's facets as the table holds them: {occasion, recipient, age,
// style}, each a list of value ids, a facet without values left out.
type facetsItem struct {
	Occasion  []string `dynamodbav:"occasion,omitempty"`
	Recipient []string `dynamodbav:"recipient,omitempty"`
	Age       []string `dynamodbav:"age,omitempty"`
	Style     []string `dynamodbav:"style,omitempty"`
}

func facetsToItem(f catalogue.Facets) *facetsItem {
	if f.IsZero() {
		return nil
	}
	return &facetsItem{Occasion: f.Occasion, Recipient: f.Recipient, Age: f.Age, Style: f.Style}
}

// facets is the product's facets, nil slices for none (as catalogue.Product.Equal
// compares them).
func (it *facetsItem) facets() catalogue.Facets {
	if it == nil {
		return catalogue.Facets{}
	}
	var f catalogue.Facets
	f.Set(catalogue.FacetOccasion, it.Occasion)
	f.Set(catalogue.FacetRecipient, it.Recipient)
	f.Set(catalogue.FacetAge, it.Age)
	f.Set(catalogue.FacetStyle, it.Style)
	return f
}

// forwardItem is a product's forward marking as the table holds it.
type forwardItem struct {
	From     string `dynamodbav:"from"`
	By       string `dynamodbav:"by"`
	Expected int    `dynamodbav:"exp,omitempty"`
}

func forwardToItem(f *catalogue.Forward) *forwardItem {
	if f == nil {
		return nil
	}
	return &forwardItem{From: f.DeliveryFrom, By: f.OrderBy, Expected: f.Expected}
}

func (it *forwardItem) forward() *catalogue.Forward {
	if it == nil {
		return nil
	}
	return &catalogue.Forward{DeliveryFrom: it.From, OrderBy: it.By, Expected: it.Expected}
}

func rangeToItem(r catalogue.Range) rangeItem {
	return rangeItem{
		keys: keys{PK: prefixRange + r.URLText, SK: skItem, GSI2PK: prefixType + typeRange,
			GSI2SK: fmt.Sprintf("%04d", r.Order), Type: typeRange},
		URLText: r.URLText, Name: r.Name, Description: r.Description, Order: r.Order,
	}
}

func (it rangeItem) toRange() catalogue.Range {
	return catalogue.Range{URLText: it.URLText, Name: it.Name, Description: it.Description, Order: it.Order}
}

func categoryToItem(c catalogue.Category) categoryItem {
	return categoryItem{
		keys: keys{PK: prefixCategory + strconv.Itoa(c.ID), SK: skItem,
			GSI1PK: prefixRange + c.RangeURLText, GSI1SK: fmt.Sprintf("%s%04d", prefixCategory, c.Order),
			GSI2PK: prefixType + typeCategory, GSI2SK: fmt.Sprintf("%04d", c.Order), Type: typeCategory},
		ID: c.ID, Slug: c.Slug, Name: c.Name, Group: c.Group, RangeURLText: c.RangeURLText, Order: c.Order,
	}
}

func (it categoryItem) toCategory() catalogue.Category {
	return catalogue.Category{ID: it.ID, Slug: it.Slug, Name: it.Name, Group: it.Group,
		RangeURLText: it.RangeURLText, Order: it.Order}
}

func productKey(sku string) map[string]types.AttributeValue { return key(prefixProduct+sku, skItem) }

func productToItem(p catalogue.Product) productItem {
	return productItem{
		keys: keys{PK: prefixProduct + p.SKU, SK: skItem,
			GSI1PK: prefixCategory + strconv.Itoa(p.CategoryID), GSI1SK: prefixProduct + p.Name + "#" + p.SKU,
			GSI2PK: prefixType + typeProduct, GSI2SK: p.SKU, Type: typeProduct},
		SKU: p.SKU, Slug: p.Slug, Name: p.Name, Description: p.Description, CategoryID: p.CategoryID,
		RangeURLText: p.RangeURLText, PackSize: p.PackSize, UnitPrice: p.UnitPrice, VATRate: p.VATRate,
		Stock: p.Stock, SmallImg: p.SmallImg, LargeImg: p.LargeImg,
		Status: p.Status, SortOrder: p.SortOrder, Barcode: p.Barcode, RRP: p.RRP, Breaks: breaksToItem(p.Breaks),
		Forward: forwardToItem(p.Forward), Facets: facetsToItem(p.Facets), Published: p.Published,
	}
}

func (it productItem) toProduct() catalogue.Product {
	return catalogue.Product{SKU: it.SKU, Slug: it.Slug, Name: it.Name, Description: it.Description,
		CategoryID: it.CategoryID, RangeURLText: it.RangeURLText, PackSize: it.PackSize,
		UnitPrice: it.UnitPrice, VATRate: it.VATRate, Stock: it.Stock, SmallImg: it.SmallImg, LargeImg: it.LargeImg,
		Status: it.Status, SortOrder: it.SortOrder, Barcode: it.Barcode, RRP: it.RRP, Breaks: it.ladder(),
		Forward: it.Forward.forward(), Facets: it.Facets.facets(), Published: it.Published}
}

// breakItem is one quantity break as the table holds it: {from, price} or {from, percent}.
type breakItem struct {
	From    int   `dynamodbav:"from"`
	Price   int64 `dynamodbav:"price,omitempty"`
	Percent int   `dynamodbav:"percent,omitempty"`
}

func breaksToItem(l pricing.Ladder) []breakItem {
	if len(l) == 0 {
		return nil
	}
	out := make([]breakItem, len(l))
	for i, t := range l {
		out[i] = breakItem{From: t.From, Price: t.Price, Percent: t.Percent}
	}
	return out
}

// ladder is the product's break table; nil when it has none.
func (it productItem) ladder() pricing.Ladder {
	if len(it.Breaks) == 0 {
		return nil
	}
	out := make(pricing.Ladder, len(it.Breaks))
	for i, b := range it.Breaks {
		out[i] = pricing.Tier{From: b.From, Price: b.Price, Percent: b.Percent}
	}
	return out
}

// PutCatalogue writes ranges, categories and products, overwriting items with the same
// keys, so loading the same catalogue twice leaves the same table. progress, if not
// nil, is called after each batch with the number of items written so far.
func (s *Store) PutCatalogue(ctx context.Context, ranges []catalogue.Range, cats []catalogue.Category,
	products []catalogue.Product, progress func(done, total int)) error {
	items := make([]any, 0, len(ranges)+len(cats)+len(products))
	for _, r := range ranges {
		items = append(items, rangeToItem(r))
	}
	for _, c := range cats {
		items = append(items, categoryToItem(c))
	}
	for _, p := range products {
		items = append(items, productToItem(p))
	}
	return s.batchPut(ctx, items, progress)
}

// batchPut writes items 25 at a time with a few batches in flight, retrying what
// DynamoDB hands back as unprocessed. progress is called under a lock.
func (s *Store) batchPut(ctx context.Context, items []any, progress func(done, total int)) error {
	const batchSize, inFlight = 25, 4
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(inFlight)
	var mu sync.Mutex
	written := 0
	for i := 0; i < len(items); i += batchSize {
		reqs := make([]types.WriteRequest, 0, batchSize)
		for _, it := range items[i:min(i+batchSize, len(items))] {
			av, err := attributevalue.MarshalMap(it)
			if err != nil {
				_ = g.Wait()
				return fmt.Errorf("marshal item: %w", err)
			}
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: av}})
		}
		g.Go(func() error {
			if err := s.writeBatch(ctx, reqs); err != nil {
				return err
			}
			if progress != nil {
				mu.Lock()
				written += len(reqs)
				progress(written, len(items))
				mu.Unlock()
			}
			return nil
		})
	}
	return g.Wait()
}

func (s *Store) writeBatch(ctx context.Context, reqs []types.WriteRequest) error {
	pending := map[string][]types.WriteRequest{s.table: reqs}
	for attempt := 0; len(pending[s.table]) > 0; attempt++ {
		if attempt > 8 {
			return fmt.Errorf("batch write: %d items still unprocessed", len(pending[s.table]))
		}
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(50<<attempt) * time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		out, err := s.db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			return fmt.Errorf("batch write: %w", err)
		}
		pending = out.UnprocessedItems
	}
	return nil
}

// queryAll runs a query through every page and unmarshals each item into T.
func queryAll[T any](ctx context.Context, s *Store, in *dynamodb.QueryInput) ([]T, error) {
	var out []T
	p := dynamodb.NewQueryPaginator(s.db, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		var items []T
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &items); err != nil {
			return nil, fmt.Errorf("unmarshal: %w", err)
		}
		out = append(out, items...)
	}
	return out, nil
}

func (s *Store) byType(typ string) (*dynamodb.QueryInput, error) {
	expr, err := expression.NewBuilder().
		WithKeyCondition(expression.Key("gsi2pk").Equal(expression.Value(prefixType + typ))).Build()
	if err != nil {
		return nil, fmt.Errorf("build query: %w", err)
	}
	return &dynamodb.QueryInput{
		TableName: aws.String(s.table), IndexName: aws.String(indexByType),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	}, nil
}

// Catalogue reads every range, category and product, in display order.
func (s *Store) Catalogue(ctx context.Context) ([]catalogue.Range, []catalogue.Category, []catalogue.Product, error) {
	ranges, cats, err := s.structure(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	pin, _ := s.byType(typeProduct)
	pitems, err := queryAll[productItem](ctx, s, pin)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read products: %w", err)
	}
	products := make([]catalogue.Product, len(pitems))
	for i, it := range pitems {
		products[i] = it.toProduct()
	}
	return ranges, cats, products, nil
}

// structure reads every range and category, in display order.
func (s *Store) structure(ctx context.Context) ([]catalogue.Range, []catalogue.Category, error) {
	ranges, err := s.Ranges(ctx)
	if err != nil {
		return nil, nil, err
	}
	cats, err := s.Categories(ctx)
	if err != nil {
		return nil, nil, err
	}
	return ranges, cats, nil
}

// Ranges reads every outlet range, in display order (one Query of the catalogue index).
func (s *Store) Ranges(ctx context.Context) ([]catalogue.Range, error) {
	rin, err := s.byType(typeRange)
	if err != nil {
		return nil, err
	}
	ritems, err := queryAll[rangeItem](ctx, s, rin)
	if err != nil {
		return nil, fmt.Errorf("read ranges: %w", err)
	}
	ranges := make([]catalogue.Range, len(ritems))
	for i, it := range ritems {
		ranges[i] = it.toRange()
	}
	return ranges, nil
}

// Categories reads every category of the catalogue (one Query of the catalogue index for
// a catalogue of a few hundred categories), in no particular order: Category.Order is the
// display order.
func (s *Store) Categories(ctx context.Context) ([]catalogue.Category, error) {
	cin, _ := s.byType(typeCategory)
	citems, err := queryAll[categoryItem](ctx, s, cin)
	if err != nil {
		return nil, fmt.Errorf("read categories: %w", err)
	}
	cats := make([]catalogue.Category, len(citems))
	for i, it := range citems {
		cats[i] = it.toCategory()
	}
	return cats, nil
}

// ProductsBySKU reads the products with these SKUs; SKUs with no product are absent
// from the answer.
func (s *Store) ProductsBySKU(ctx context.Context, skus []string) (map[string]catalogue.Product, error) {
	return s.products(ctx, skus, false)
}

// products reads the products with these SKUs, strongly consistently if consistent.
func (s *Store) products(ctx context.Context, skus []string, consistent bool) (map[string]catalogue.Product, error) {
	keys := make([]map[string]types.AttributeValue, len(skus))
	for i, sku := range skus {
		keys[i] = productKey(sku)
	}
	raw, err := s.batchGet(ctx, keys, consistent)
	if err != nil {
		return nil, fmt.Errorf("read products: %w", err)
	}
	return productsOf(raw)
}

// productsOf unmarshals product items by SKU.
func productsOf(raw []map[string]types.AttributeValue) (map[string]catalogue.Product, error) {
	var items []productItem
	if err := attributevalue.UnmarshalListOfMaps(raw, &items); err != nil {
		return nil, fmt.Errorf("unmarshal products: %w", err)
	}
	out := make(map[string]catalogue.Product, len(items))
	for _, it := range items {
		out[it.SKU] = it.toProduct()
	}
	return out, nil
}

// SeedLoaded reports whether a seed load has finished in this table.
func (s *Store) SeedLoaded(ctx context.Context) (bool, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(s.table),
		Key:       key(pkSeedMarker, skSeedMarker),
	})
	if err != nil {
		return false, fmt.Errorf("read seed marker: %w", err)
	}
	return out.Item != nil, nil
}

// MarkSeedLoaded records that a seed load of n products finished.
func (s *Store) MarkSeedLoaded(ctx context.Context, n int) error {
	item, err := attributevalue.MarshalMap(struct {
		PK       string `dynamodbav:"pk"`
		SK       string `dynamodbav:"sk"`
		Products int    `dynamodbav:"products"`
		At       string `dynamodbav:"at"`
	}{pkSeedMarker, skSeedMarker, n, time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return fmt.Errorf("marshal seed marker: %w", err)
	}
	if _, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: item}); err != nil {
		return fmt.Errorf("write seed marker: %w", err)
	}
	return nil
}

// CategoryProducts reads up to limit products of a category in name order.
func (s *Store) CategoryProducts(ctx context.Context, categoryID, limit int) ([]catalogue.Product, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(
		expression.Key("gsi1pk").Equal(expression.Value(prefixCategory + strconv.Itoa(categoryID)))).Build()
	if err != nil {
		return nil, fmt.Errorf("build category query: %w", err)
	}
	out, err := s.db.Query(ctx, &dynamodb.QueryInput{
		TableName: aws.String(s.table), IndexName: aws.String(indexChildren),
		KeyConditionExpression: expr.KeyCondition(), ExpressionAttributeNames: expr.Names(),
		ExpressionAttributeValues: expr.Values(), Limit: aws.Int32(int32(limit)),
	})
	if err != nil {
		return nil, fmt.Errorf("category %d products: %w", categoryID, err)
	}
	var items []productItem
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, fmt.Errorf("unmarshal products: %w", err)
	}
	products := make([]catalogue.Product, len(items))
	for i, it := range items {
		products[i] = it.toProduct()
	}
	return products, nil
}
