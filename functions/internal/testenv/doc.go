// Package testenv gives integration tests the real local services: a fresh table in
// DynamoDB Local and users in the Firebase Auth emulator. Tests using it skip when
// DYNAMODB_ENDPOINT or FIREBASE_AUTH_EMULATOR_HOST is unset; the README's test command
// always sets both, so there they always run.
package testenv
