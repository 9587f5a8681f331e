// Command search is the Lambda for the /api/search endpoint (see internal/api/routes.go).
package main

import "github.com/tradeshop/functions/internal/lambdarun"

func main() { lambdarun.Run("search") }
