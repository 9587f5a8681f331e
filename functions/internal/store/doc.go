// Package store reads and writes the shop's single DynamoDB table through
// aws-sdk-go-v2. Items are private structs with dynamodbav tags and explicit
// to/from mappers; key prefixes are the constants in keys.go. Locally the same code
// talks to DynamoDB Local, Amazon's own engine, through an endpoint override: there is no
// second implementation.
package store
