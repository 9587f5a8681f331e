package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/account"
)

// Address is a postal address.
type Address struct {
	Line1    string `dynamodbav:"line1" json:"line1"`
	Line2    string `dynamodbav:"line2,omitempty" json:"line2"`
	Town     string `dynamodbav:"town" json:"town"`
	Postcode string `dynamodbav:"postcode" json:"postcode"`
}

// Billing is what the billing step saves for next time.
type Billing struct {
	Company       string  `dynamodbav:"company" json:"company"`
	Contact       string  `dynamodbav:"contact" json:"contact"`
	Address       Address `dynamodbav:"address" json:"address"`
	VATNumber     string  `dynamodbav:"vatNumber,omitempty" json:"vat_number"`
	PORef         string  `dynamodbav:"poRef,omitempty" json:"po_ref"`
	PaymentMethod string  `dynamodbav:"paymentMethod" json:"payment_method"` // "account", "proforma" or "card"
}

// Profile is a trade account's details. ActiveCouponID keeps its "coupon-" prefix;
// DSC is the account's own discounts as a JSON object string ("" for none).
type Profile struct {
	UID            string
	Business       string
	Email          string
	Telephone      string
	OptInMarketing int
	ActiveCouponID string
	DSC            string
	// PriceGroup is the id of the account's price group ("" for none).
	PriceGroup string
	// ApprovedForCredit accounts may pay on account; others pay pro-forma.
	ApprovedForCredit bool
	// CreditLimit is the most the account may owe on account (pence), nil for none set;
	// Owed what it owes on unpaid orders paid on account (docs/back-office.md "Credit").
	CreditLimit *int64
	Owed        int64
	Billing     *Billing
	UpdatedAt   time.Time
}

type profileItem struct {
	PK             string   `dynamodbav:"pk"`
	SK             string   `dynamodbav:"sk"`
	Business       string   `dynamodbav:"business,omitempty"`
	Email          string   `dynamodbav:"email,omitempty"`
	Telephone      string   `dynamodbav:"telephone,omitempty"`
	OptInMarketing int      `dynamodbav:"optInMarketing"`
	ActiveCouponID string   `dynamodbav:"active_coupon_id,omitempty"`
	DSC            string   `dynamodbav:"dsc,omitempty"`
	PriceGroup     string   `dynamodbav:"pg,omitempty"`
	UpdatedAt      int64    `dynamodbav:"updatedAt"`
	Approved       bool     `dynamodbav:"approvedForCredit,omitempty"`
	CreditLimit    *int64   `dynamodbav:"creditLimit,omitempty"`
	Owed           int64    `dynamodbav:"owed,omitempty"`
	Billing        *Billing `dynamodbav:"billing,omitempty"`
	// GSI3PK and GSI3SK list the account for staff (ACCOUNTS, business name); Search is
	// what the staff search looks in.
	GSI3PK string `dynamodbav:"gsi3pk,omitempty"`
	GSI3SK string `dynamodbav:"gsi3sk,omitempty"`
	Search string `dynamodbav:"search,omitempty"`
}

func profileKey(uid string) map[string]types.AttributeValue { return key(prefixUser+uid, skProfile) }

func (it profileItem) toProfile(uid string) Profile {
	return Profile{UID: uid, Business: it.Business, Email: it.Email, Telephone: it.Telephone,
		OptInMarketing: it.OptInMarketing, ActiveCouponID: it.ActiveCouponID, DSC: it.DSC, PriceGroup: it.PriceGroup,
		ApprovedForCredit: it.Approved, CreditLimit: it.CreditLimit, Owed: it.Owed, Billing: it.Billing,
		UpdatedAt: time.UnixMilli(it.UpdatedAt).UTC()}
}

// unmarshalProfile reads a profile item.
func unmarshalProfile(item map[string]types.AttributeValue, uid string) (Profile, error) {
	var it profileItem
	if err := attributevalue.UnmarshalMap(item, &it); err != nil {
		return Profile{}, fmt.Errorf("unmarshal profile %s: %w", uid, err)
	}
	return it.toProfile(uid), nil
}

// Account is what the basket and order rules need of the profile.
func (p Profile) Account() account.Account {
	a := account.Account{UID: p.UID, DSC: p.DSC, PriceGroup: p.PriceGroup, ActiveCouponID: strings.TrimPrefix(p.ActiveCouponID, CouponPrefix),
		ApprovedForCredit: p.ApprovedForCredit, CreditLimit: p.CreditLimit, Owed: p.Owed}
	if p.Billing != nil {
		b := p.Billing.toAccount()
		a.Billing = &b
	}
	return a
}

func (a Address) toAccount() account.Address {
	return account.Address{Line1: a.Line1, Line2: a.Line2, Town: a.Town, Postcode: a.Postcode}
}

// AddressOf is a domain address in the shape stored and answered (its JSON names are
// the ones the billing step sends).
func AddressOf(a account.Address) Address {
	return Address{Line1: a.Line1, Line2: a.Line2, Town: a.Town, Postcode: a.Postcode}
}

func (b Billing) toAccount() account.Billing {
	return account.Billing{Company: b.Company, Contact: b.Contact, Address: b.Address.toAccount(), VATNumber: b.VATNumber,
		PORef: b.PORef, PaymentMethod: b.PaymentMethod}
}

// BillingOf is domain billing details in the shape stored and answered.
func BillingOf(b account.Billing) Billing {
	return Billing{Company: b.Company, Contact: b.Contact, Address: AddressOf(b.Address), VATNumber: b.VATNumber,
		PORef: b.PORef, PaymentMethod: b.PaymentMethod}
}

// CouponPrefix marks a coupon id in a profile's active_coupon_id (SPEC.md section 7).
const CouponPrefix = "coupon-"

// Profile reads uid's profile; ErrNotFound when there is none.
func (s *Store) Profile(ctx context.Context, uid string) (Profile, error) {
	it, err := getItem[profileItem](ctx, s, prefixUser+uid, skProfile)
	if err != nil {
		return Profile{}, fmt.Errorf("get profile %s: %w", uid, err)
	}
	return it.toProfile(uid), nil
}

// CreateProfile writes a new profile for uid unless one with a business or an email
// already exists (so two first requests cannot overwrite each other); it answers the
// profile that is stored afterwards.
func (s *Store) CreateProfile(ctx context.Context, p Profile, at time.Time) (Profile, error) {
	item, err := attributevalue.MarshalMap(profileItem{PK: prefixUser + p.UID, SK: skProfile, Business: p.Business,
		Email: p.Email, Telephone: p.Telephone, OptInMarketing: p.OptInMarketing, ActiveCouponID: p.ActiveCouponID,
		DSC: p.DSC, UpdatedAt: at.UnixMilli(), GSI3PK: pkAccountList, GSI3SK: accountListSK(p.Business, p.UID),
		Search: accountSearchText(p.Business, p.Email)})
	if err != nil {
		return Profile{}, fmt.Errorf("marshal profile: %w", err)
	}
	cond := expression.AttributeNotExists(expression.Name("pk")).Or(
		expression.AttributeNotExists(expression.Name("business")).And(expression.AttributeNotExists(expression.Name("email"))))
	err = s.putIf(ctx, item, cond)
	var lost *types.ConditionalCheckFailedException
	if errors.As(err, &lost) {
		return s.Profile(ctx, p.UID) // another request created it first
	}
	if err != nil {
		return Profile{}, fmt.Errorf("create profile %s: %w", p.UID, err)
	}
	p.UpdatedAt = time.UnixMilli(at.UnixMilli()).UTC()
	return p, nil
}

// ProfileUpdate is the part of a profile its owner edits.
type ProfileUpdate struct {
	Business       string
	Telephone      string
	Email          string
	OptInMarketing int
}

// UpdateProfile sets the owner-editable fields of uid's profile in one update, creating
// the profile if it does not exist, and answers the stored profile.
func (s *Store) UpdateProfile(ctx context.Context, uid string, u ProfileUpdate, at time.Time) (Profile, error) {
	upd := expression.Set(expression.Name("business"), expression.Value(u.Business)).
		Set(expression.Name("email"), expression.Value(u.Email)).
		Set(expression.Name("optInMarketing"), expression.Value(u.OptInMarketing)).
		Set(expression.Name("updatedAt"), expression.Value(at.UnixMilli())).
		Set(expression.Name("gsi3pk"), expression.Value(pkAccountList)).
		Set(expression.Name("gsi3sk"), expression.Value(accountListSK(u.Business, uid))).
		Set(expression.Name("search"), expression.Value(accountSearchText(u.Business, u.Email)))
	if u.Telephone != "" {
		upd = upd.Set(expression.Name("telephone"), expression.Value(u.Telephone))
	} else {
		upd = upd.Remove(expression.Name("telephone"))
	}
	expr, err := expression.NewBuilder().WithUpdate(upd).Build()
	if err != nil {
		return Profile{}, fmt.Errorf("build profile update: %w", err)
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: profileKey(uid), UpdateExpression: expr.Update(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValues: types.ReturnValueAllNew,
	})
	if err != nil {
		return Profile{}, fmt.Errorf("update profile %s: %w", uid, err)
	}
	var it profileItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return Profile{}, fmt.Errorf("unmarshal profile %s: %w", uid, err)
	}
	return it.toProfile(uid), nil
}

// SaveBilling stores the billing details for uid's next checkout.
func (s *Store) SaveBilling(ctx context.Context, uid string, b Billing, at time.Time) error {
	expr, err := expression.NewBuilder().WithUpdate(expression.Set(expression.Name("billing"), expression.Value(b)).
		Set(expression.Name("updatedAt"), expression.Value(at.UnixMilli()))).Build()
	if err != nil {
		return fmt.Errorf("build billing update: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: profileKey(uid),
		UpdateExpression: expr.Update(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	if err != nil {
		return fmt.Errorf("save billing of %s: %w", uid, err)
	}
	return nil
}

// SetApprovedForCredit marks whether uid may pay on account (an admin decision; tests
// and support tooling use it).
func (s *Store) SetApprovedForCredit(ctx context.Context, uid string, approved bool) error {
	expr, err := expression.NewBuilder().WithUpdate(expression.Set(expression.Name("approvedForCredit"), expression.Value(approved))).Build()
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: profileKey(uid),
		UpdateExpression: expr.Update(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
	return err
}

// accountListSK is an account's sort key in the staff list: business name, then uid.
func accountListSK(business, uid string) string { return strings.ToLower(business) + "#" + uid }

// accountSearchText is what the staff search of accounts matches.
func accountSearchText(business, email string) string {
	return strings.ToLower(business + " " + email)
}
