// Command csrf is the Lambda for the /api/csrf endpoint (see internal/api/routes.go).
package main

import "github.com/tradeshop/functions/internal/lambdarun"

func main() { lambdarun.Run("csrf") }
