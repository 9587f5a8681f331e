// Command profile is the Lambda for the /api/profile endpoint (see internal/api/routes.go).
package main

import "github.com/tradeshop/functions/internal/lambdarun"

func main() { lambdarun.Run("profile") }
