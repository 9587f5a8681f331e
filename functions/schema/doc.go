// Package schema is the single source of the shop's DynamoDB table shape.
//
// table.json (embedded here) names the keys and global secondary indexes. The Go
// bootstrap that creates the local table reads it through this package, and the CDK
// app in infra/ reads the same file, so the local and deployed tables cannot drift.
package schema
