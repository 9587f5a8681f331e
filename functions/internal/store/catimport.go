package store

import (
	"context"
	"errors"
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
	"github.com/tradeshop/functions/internal/orders"
)

// The catalogue import's writes (docs/catalogue-import.md "How an import is applied").
// Invariants:
//   - one import at a time: the lock item names the import (its job, a hash of what it
//     writes) and is held under a lease; a re-run of the same job takes it over, so a
//     crashed import is finished by running it again;
//   - an import's stock figure is applied to a product at most once: the write that sets
//     it also records the job (stockJob), and a product already carrying the job is left
//     alone; the figure goes in as a change (ADD), so an order placed between the import
//     reading the product and writing it keeps its units taken;
//   - products are never deleted: a product missing from a full import is discontinued.

// AuditImport is the audit trail of catalogue imports (AUDIT#IMPORT#CATALOGUE).
const AuditImport = "IMPORT#CATALOGUE"

const (
	pkImportLock = "IMPORT#LOCK"
	skImportLock = "LOCK"
)

// ImportProduct is a product as the import sees it: with the import that last set its stock.
type ImportProduct struct {
	catalogue.Product
	StockJob string
}

// CatalogueForImport reads every range, category and product (discontinued ones too).
func (s *Store) CatalogueForImport(ctx context.Context) ([]catalogue.Range, []catalogue.Category, []ImportProduct, error) {
	ranges, cats, err := s.structure(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	pitems, err := s.productsInParts(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read products: %w", err)
	}
	out := make([]ImportProduct, 0, len(pitems))
	seen := make(map[string]bool, len(pitems))
	for _, it := range pitems {
		if !seen[it.SKU] { // a SKU equal to a boundary is in two parts
			seen[it.SKU] = true
			out = append(out, ImportProduct{Product: it.toProduct(), StockJob: it.StockJob})
		}
	}
	return ranges, cats, out, nil
}

// skuBounds split the products' type index by SKU into parts read side by side: a
// 50,000-product catalogue is 25 pages of 1 MB, read one after the other otherwise.
var skuBounds = []string{"5", "A", "E", "I", "M", "Q", "U"}

// productsInParts reads every product through the type index, one query per SKU range
// (below the first bound, between each two, from the last), the queries side by side.
func (s *Store) productsInParts(ctx context.Context) ([]productItem, error) {
	pk := expression.Key("gsi2pk").Equal(expression.Value(prefixType + typeProduct))
	sk := expression.Key("gsi2sk")
	conds := []expression.KeyConditionBuilder{pk.And(sk.LessThan(expression.Value(skuBounds[0])))}
	for i := 0; i+1 < len(skuBounds); i++ {
		conds = append(conds, pk.And(sk.Between(expression.Value(skuBounds[i]), expression.Value(skuBounds[i+1]))))
	}
	conds = append(conds, pk.And(sk.GreaterThanEqual(expression.Value(skuBounds[len(skuBounds)-1]))))
	parts := make([][]productItem, len(conds))
	g, ctx := errgroup.WithContext(ctx)
	for i, c := range conds {
		g.Go(func() error {
			expr, err := expression.NewBuilder().WithKeyCondition(c).Build()
			if err != nil {
				return err
			}
			parts[i], err = queryAll[productItem](ctx, s, &dynamodb.QueryInput{TableName: aws.String(s.table), IndexName: aws.String(indexByType),
				KeyConditionExpression: expr.KeyCondition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var all []productItem
	for _, p := range parts {
		all = append(all, p...)
	}
	return all, nil
}

// PutStructure writes ranges and categories (whole items: they hold nothing an order changes).
func (s *Store) PutStructure(ctx context.Context, ranges []catalogue.Range, cats []catalogue.Category) error {
	return s.PutCatalogue(ctx, ranges, cats, nil, nil)
}

// PutNewProducts writes products the table does not hold yet, their stock set by job.
// progress is called with the number written after each batch.
func (s *Store) PutNewProducts(ctx context.Context, ps []catalogue.Product, job string, progress func(done int)) error {
	items := make([]any, len(ps))
	for i, p := range ps {
		it := productToItem(p)
		it.StockJob = job
		items[i] = it
	}
	return s.batchPut(ctx, items, func(done, _ int) {
		if progress != nil {
			progress(done)
		}
	})
}

// ProductUpdate is the import's change to a product already in the table: its catalogue
// fields become After's (all but Stock); when MarkStock, the stock is moved by StockDelta
// (the file's figure StockTo less what the import read) and stockJob set to the job.
// Audit, when not nil, is written in the same transaction.
type ProductUpdate struct {
	After      catalogue.Product
	MarkStock  bool
	StockDelta int
	StockTo    int
	Audit      *orders.AuditEntry
}

// importWriters is how many writes an import keeps in flight; importGroup how many
// products (each with its audit entry) go in one transaction.
const (
	importWriters = 8
	importGroup   = 25
)

// UpdateProducts applies ups, a group of importGroup products to a transaction,
// importWriters transactions at a time. A group whose transaction is refused (a stock
// condition, a race with an order) is applied product by product. progress is called
// with the number done so far.
func (s *Store) UpdateProducts(ctx context.Context, ups []ProductUpdate, job string, progress func(done int)) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(importWriters)
	var mu sync.Mutex
	done := 0
	for i := 0; i < len(ups); i += importGroup {
		group := ups[i:min(i+importGroup, len(ups))]
		g.Go(func() error {
			if err := s.updateGroup(ctx, group, job); err != nil {
				return err
			}
			mu.Lock()
			done += len(group)
			if progress != nil {
				progress(done)
			}
			mu.Unlock()
			return nil
		})
	}
	return g.Wait()
}

func (s *Store) updateGroup(ctx context.Context, group []ProductUpdate, job string) error {
	if len(group) > 1 {
		t := &txn{}
		for _, u := range group {
			if err := s.addProductUpdate(t, u, job); err != nil {
				return err
			}
		}
		err := s.run(ctx, t, "")
		var refused *orders.Refused
		if !errors.As(err, &refused) {
			return err
		}
	}
	for _, u := range group {
		if err := s.updateProduct(ctx, u, job); err != nil {
			return fmt.Errorf("product %s: %w", u.After.SKU, err)
		}
	}
	return nil
}

func (s *Store) updateProduct(ctx context.Context, u ProductUpdate, job string) error {
	for attempt := 0; ; attempt++ {
		err := s.tryUpdateProduct(ctx, u, job)
		if err == nil || attempt == 4 {
			return err
		}
		var refused *orders.Refused
		// An update that did not answer in time (the store paused on a busy machine) may
		// have been applied, or may be still: it is not sent again blind (it may move the
		// stock) but worked out again from the product as it is, like a failed condition.
		// The stockJob mark, which the update sets only where it is not set, says whether
		// this import's stock change is in already, so the stock moves once.
		unknown := errors.Is(err, ErrUnavailable) && ctx.Err() == nil
		if !unknown && !errors.As(err, &refused) {
			return err
		}
		if refused != nil && refused.Kind == orders.RefusedBusy {
			time.Sleep(time.Duration(20<<attempt) * time.Millisecond)
			continue
		}
		// The condition failed, or the outcome is unknown: read the product as it is now
		// and work the change out again.
		it, err := getItem[productItem](ctx, s, prefixProduct+u.After.SKU, skItem)
		if err != nil {
			return err
		}
		if it.StockJob == job {
			u.MarkStock, u.StockDelta = false, 0 // this import set the stock already
		} else if u.MarkStock {
			u.StockDelta = u.StockTo - it.Stock // orders took more than the change would leave: the file's figure
		}
		if !u.MarkStock && withStock(it.toProduct(), u.After.Stock).Equal(u.After) {
			// The product holds the change already: an earlier try whose answer was lost
			// (or which ran on in a paused store) wrote it, with its audit entry in the same
			// transaction, which is why this try's audit condition failed.
			return nil
		}
	}
}

// withStock is p with its stock set to n.
func withStock(p catalogue.Product, n int) catalogue.Product {
	p.Stock = n
	return p
}

// addProductUpdate adds u's update (and its audit entry) to t.
func (s *Store) addProductUpdate(t *txn, u ProductUpdate, job string) error {
	p := u.After
	upd := expression.Set(expression.Name("slug"), expression.Value(p.Slug)).
		Set(expression.Name("name"), expression.Value(p.Name)).
		Set(expression.Name("description"), expression.Value(p.Description)).
		Set(expression.Name("categoryId"), expression.Value(p.CategoryID)).
		Set(expression.Name("rangeUrlText"), expression.Value(p.RangeURLText)).
		Set(expression.Name("packSize"), expression.Value(p.PackSize)).
		Set(expression.Name("unitPrice"), expression.Value(p.UnitPrice)).
		Set(expression.Name("vatRate"), expression.Value(p.VATRate)).
		Set(expression.Name("smallImg"), expression.Value(p.SmallImg)).
		Set(expression.Name("largeImg"), expression.Value(p.LargeImg)).
		Set(expression.Name("status"), expression.Value(p.Status)).
		Set(expression.Name("gsi1pk"), expression.Value(prefixCategory+strconv.Itoa(p.CategoryID))).
		Set(expression.Name("gsi1sk"), expression.Value(prefixProduct+p.Name+"#"+p.SKU))
	if p.SortOrder > 0 {
		upd = upd.Set(expression.Name("sortOrder"), expression.Value(p.SortOrder))
	} else {
		upd = upd.Remove(expression.Name("sortOrder"))
	}
	if p.Barcode != "" {
		upd = upd.Set(expression.Name("barcode"), expression.Value(p.Barcode))
	} else {
		upd = upd.Remove(expression.Name("barcode"))
	}
	if p.RRP > 0 {
		upd = upd.Set(expression.Name("rrp"), expression.Value(p.RRP))
	} else {
		upd = upd.Remove(expression.Name("rrp"))
	}
	if len(p.Breaks) > 0 {
		upd = upd.Set(expression.Name("breaks"), expression.Value(breaksToItem(p.Breaks)))
	} else {
		upd = upd.Remove(expression.Name("breaks"))
	}
	if p.Forward != nil {
		upd = upd.Set(expression.Name("fwd"), expression.Value(forwardToItem(p.Forward)))
	} else {
		upd = upd.Remove(expression.Name("fwd"))
	}
	if !p.Facets.IsZero() {
		upd = upd.Set(expression.Name("facets"), expression.Value(facetsToItem(p.Facets)))
	} else {
		upd = upd.Remove(expression.Name("facets"))
	}
	if p.Published != "" {
		upd = upd.Set(expression.Name("published"), expression.Value(p.Published))
	} else {
		upd = upd.Remove(expression.Name("published"))
	}
	cond := expression.AttributeExists(expression.Name("pk"))
	if u.MarkStock {
		stockJob := expression.Name("stockJob")
		upd = upd.Set(stockJob, expression.Value(job))
		cond = cond.And(expression.Or(expression.AttributeNotExists(stockJob), stockJob.NotEqual(expression.Value(job))))
		if u.StockDelta != 0 {
			upd = upd.Add(expression.Name("stock"), expression.Value(u.StockDelta))
		}
		if u.StockDelta < 0 {
			cond = cond.And(expression.Name("stock").GreaterThanEqual(expression.Value(-u.StockDelta)))
		}
	}
	if err := t.update(role{kind: orders.RefusedStock, sku: p.SKU}, productKey(p.SKU), s.table, upd, &cond); err != nil {
		return err
	}
	if u.Audit != nil {
		return s.putAudit(t, AuditProduct+p.SKU, *u.Audit)
	}
	return nil
}

func (s *Store) tryUpdateProduct(ctx context.Context, u ProductUpdate, job string) error {
	t := &txn{}
	if err := s.addProductUpdate(t, u, job); err != nil {
		return err
	}
	if len(t.items) == 1 {
		up := t.items[0].Update
		_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: up.TableName, Key: up.Key,
			UpdateExpression: up.UpdateExpression, ConditionExpression: up.ConditionExpression,
			ExpressionAttributeNames: up.ExpressionAttributeNames, ExpressionAttributeValues: up.ExpressionAttributeValues})
		var failed *types.ConditionalCheckFailedException
		if errors.As(err, &failed) {
			return &orders.Refused{Kind: orders.RefusedStock, SKU: u.After.SKU}
		}
		return err
	}
	return s.run(ctx, t, "")
}

// ImportBusy is the lock held by another import.
type ImportBusy struct {
	Job   string
	By    string
	Until time.Time
}

func (e *ImportBusy) Error() string {
	return fmt.Sprintf("Another catalogue import (by %s) is running: it holds the lock until %s UTC at the latest, so try again after that.",
		e.By, e.Until.UTC().Format("15:04:05"))
}

type importLockItem struct {
	PK    string `dynamodbav:"pk"`
	SK    string `dynamodbav:"sk"`
	Job   string `dynamodbav:"job"`
	By    string `dynamodbav:"by"`
	Until int64  `dynamodbav:"until"`
}

// LockImport takes (or renews) the import lock for job until now+lease: free, expired
// or already job's. Held by another live import, it answers *ImportBusy.
func (s *Store) LockImport(ctx context.Context, job, by string, now time.Time, lease time.Duration) error {
	item, err := attributevalue.MarshalMap(importLockItem{PK: pkImportLock, SK: skImportLock, Job: job, By: by, Until: now.Add(lease).UnixMilli()})
	if err != nil {
		return err
	}
	cond := expression.AttributeNotExists(expression.Name("pk")).
		Or(expression.Name("job").Equal(expression.Value(job))).
		Or(expression.Name("until").LessThan(expression.Value(now.UnixMilli())))
	err = s.putIf(ctx, item, cond)
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		var held importLockItem
		_ = attributevalue.UnmarshalMap(failed.Item, &held)
		return &ImportBusy{Job: held.Job, By: held.By, Until: time.UnixMilli(held.Until)}
	}
	if err != nil {
		return fmt.Errorf("import lock: %w", err)
	}
	return nil
}

// UnlockImport gives the lock up if job holds it.
func (s *Store) UnlockImport(ctx context.Context, job string) error {
	expr, err := expression.NewBuilder().WithCondition(expression.Name("job").Equal(expression.Value(job))).Build()
	if err != nil {
		return err
	}
	_, err = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(pkImportLock, skImportLock),
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	var failed *types.ConditionalCheckFailedException
	if err != nil && !errors.As(err, &failed) {
		return fmt.Errorf("import unlock: %w", err)
	}
	return nil
}

// RecordImport writes e to the imports' audit trail (AuditImport).
func (s *Store) RecordImport(ctx context.Context, e orders.AuditEntry) error {
	t := &txn{}
	if err := s.putAudit(t, AuditImport, e); err != nil {
		return err
	}
	return s.run(ctx, t, "")
}
