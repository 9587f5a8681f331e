// Package mail makes and sends the shop's emails (docs/back-office.md "Emails"). Notices
// renders each order event's emails (plain text from text/template, simple HTML from
// html/template, both embedded) as outbox messages, which the event's transaction writes;
// SMTP sends one message through an SMTP server with github.com/wneessen/go-mail (Amazon
// SES's SMTP interface in the cloud, maildev locally); Deliver claims each due message of
// the outbox in turn, sends it and marks it sent, or releases it with back-off when the
// server is down. It imports no store: Deliver takes the Outbox it needs.
package mail
