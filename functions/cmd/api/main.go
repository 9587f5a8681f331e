// Command api is the Lambda of every /api endpoint. The cloud still runs one function per
// endpoint (each with only its own table rights, docs/infrastructure.md), but they all run
// this one binary: the CDK app tells each function which endpoint it serves in
// API_ENDPOINT, a name from internal/api/endpoints.json.
package main

import (
	"os"

	"github.com/tradeshop/functions/internal/lambdarun"
)

func main() { lambdarun.Run(os.Getenv) }
