package api

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/store"
)

// endpointsJSON is endpoints.json: the /api surface as the cloud deploys it, with each
// endpoint's table grants and whether it gets the CSRF secret (the CDK app reads the same
// file). It is generated from routes.go by cmd/deployment (go generate ./internal/api/);
// endpoints_test.go and the static suite fail when it is stale, and
// access_integration_test.go keeps its grants true.
//
//go:embed endpoints.json
var endpointsJSON []byte

// Grant is one IAM statement on the table: Actions (DynamoDB operation names) on items
// whose partition key matches one of Keys (IAM StringLike patterns on
// dynamodb:LeadingKeys), or, with Index, a read of that index (catalogue reads: no key
// condition, the index holds only catalogue items).
type Grant struct {
	Actions []string `json:"actions"`
	Keys    []string `json:"keys,omitempty"`
	Index   string   `json:"index,omitempty"`
}

// DeployedFunction is one function of endpoints.json: an /api endpoint (with routes) or
// a scheduled job.
type DeployedFunction struct {
	Name string `json:"name"`
	// Group is the endpoint group its metrics and alarms are gathered under (catalogue,
	// basket, orders, account, admin, errors; jobs for the functions no route serves).
	Group      string   `json:"group"`
	Routes     []string `json:"routes,omitempty"`
	CSRFSecret bool     `json:"csrfSecret"`
	Access     []Grant  `json:"access"`
	MemoryMB   int      `json:"memoryMB,omitempty"`
	// TimeoutSeconds is the function's timeout (default 10; at most 29, under API
	// Gateway's 30 s).
	TimeoutSeconds int `json:"timeoutSeconds,omitempty"`
	// MediaBucket: the function publishes product pictures to the media bucket
	// (MEDIA_BUCKET; objects under media/products/).
	MediaBucket bool `json:"mediaBucket,omitempty"`
	// StripeSecret: the function calls Stripe or checks its webhook signatures, so it may
	// read the stage's Stripe secret (STRIPE_SECRET_ARN: Secrets Manager JSON
	// {"secret_key","webhook_secret"}, read at cold start); no other function can.
	StripeSecret bool `json:"stripeSecret,omitempty"`
	// PublishBuild: the function publishes the catalogue by starting and reading builds
	// of the stage's publish project (PUBLISH_PROJECT; codebuild:StartBuild,
	// ListBuildsForProject and BatchGetBuilds on that project, logs:GetLogEvents on its
	// log group).
	PublishBuild bool `json:"publishBuild,omitempty"`
}

// Deployment is endpoints.json.
type Deployment struct {
	Endpoints []DeployedFunction `json:"endpoints"`
	Jobs      []DeployedFunction `json:"jobs"`
}

// ReadDeployment parses endpoints.json as built into this binary.
func ReadDeployment() (Deployment, error) {
	var d Deployment
	if err := json.Unmarshal(endpointsJSON, &d); err != nil {
		return d, fmt.Errorf("endpoints.json: %w", err)
	}
	return d, nil
}

// DepsForEndpoint builds the Deps of the Lambda serving endpoint name. Only the
// endpoints that check or issue CSRF tokens are deployed with CSRF_SECRET (endpoints.json
// "csrfSecret"), and csrf.FromEnv refuses to start without it in staging and production;
// every other endpoint gets csrf.Disabled(), which panics if it is ever used, so an
// endpoint that needs the secret and was not given it fails loudly. Every other Dep is as
// DepsFromEnv builds it.
func DepsForEndpoint(ctx context.Context, getenv func(string) string, log *slog.Logger, name string) (Deps, error) {
	d, err := ReadDeployment()
	if err != nil {
		return Deps{}, err
	}
	i := slices.IndexFunc(d.Endpoints, func(e DeployedFunction) bool { return e.Name == name })
	if i < 0 {
		return Deps{}, fmt.Errorf("endpoints.json has no endpoint %q", name)
	}
	protector := csrf.Disabled()
	if d.Endpoints[i].CSRFSecret {
		if protector, err = csrf.FromEnv(getenv); err != nil {
			return Deps{}, err
		}
	}
	st, err := store.Open(ctx, store.ConfigFromEnv(getenv))
	if err != nil {
		return Deps{}, err
	}
	return depsWith(ctx, getenv, log, st, protector)
}

// grant is the Grant of actions (DynamoDB operation names, separated by spaces) on items
// whose partition key matches one of keys: the short form of routes.go's deploy facts.
func grant(actions string, keys ...string) Grant {
	return Grant{Actions: strings.Fields(actions), Keys: keys}
}

// indexQuery is the Grant of a Query of the named index (a catalogue read).
func indexQuery(index string) Grant {
	return Grant{Actions: []string{"Query"}, Index: index}
}

// DeploymentFromRoutes is the deployment routes.go declares: each function of
// endpointFunctions with the routes Endpoints() gives its name, and jobFunctions. It
// fails when an endpoint is served without deploy facts, or facts name no endpoint.
func DeploymentFromRoutes() (Deployment, error) {
	routes := map[string][]string{}
	var order []string
	for _, e := range Endpoints(Deps{Log: slog.New(slog.DiscardHandler), CSRF: csrf.Disabled()}) {
		if routes[e.Name] == nil {
			order = append(order, e.Name)
		}
		routes[e.Name] = append(routes[e.Name], e.Pattern)
	}
	var problems []string
	d := Deployment{Jobs: slices.Clone(jobFunctions)}
	seen := map[string]bool{}
	for _, f := range endpointFunctions {
		if seen[f.Name] {
			problems = append(problems, fmt.Sprintf("endpointFunctions lists %s twice", f.Name))
		}
		seen[f.Name] = true
		if routes[f.Name] == nil {
			problems = append(problems, fmt.Sprintf("endpointFunctions lists %s, which Endpoints() does not serve", f.Name))
		}
		f.Routes = routes[f.Name]
		d.Endpoints = append(d.Endpoints, f)
	}
	for _, name := range order {
		if !seen[name] {
			problems = append(problems, fmt.Sprintf("endpoint %s is served but has no deploy facts, so it would not be deployed: "+
				"add {Name: %q, CSRFSecret: true if it checks or issues CSRF tokens, Access: []Grant{...}} to endpointFunctions in routes.go "+
				"(TestEndpointsStayWithinTheirTableRights names the table grants it needs)", name, name))
		}
	}
	if len(problems) > 0 {
		return Deployment{}, errors.New(strings.Join(problems, "\n"))
	}
	return d, nil
}

// deploymentComment is endpoints.json's "$comment", for a reader of the file.
const deploymentComment = `The /api surface as the cloud deploys it: one Lambda per name, its routes, whether it gets the CSRF secret (csrfSecret: only the endpoints that check or issue tokens), and its table grants (access). Each grant is one IAM statement: DynamoDB actions on items whose partition key matches one of keys (ForAllValues:StringLike on dynamodb:LeadingKeys), or with index, a Query of that index (the catalogue; no key condition). A transaction needs each item's own action. jobs are functions no route serves (the order sweeper, the email sender). Read by infra/ (CDK), the Lambda build script and the Go functions (embedded); it is generated from routes.go (Endpoints() and the deploy facts beside it) by go generate ./internal/api/, so edit routes.go, never this file; and access_integration_test.go checks against DynamoDB Local that each endpoint and each job make only accesses their grants allow, and use the CSRF secret exactly when given it. group is the endpoint group metrics, alarms and the dashboard gather it under (jobs for the jobs). memoryMB is optional (default 256), as is timeoutSeconds (default 10; at most 29, under API Gateway's 30 s). mediaBucket: the function publishes product pictures to the media bucket (s3:PutObject and s3:GetObject on media/products/*, s3:ListBucket on the bucket so a missing picture is a 404, and MEDIA_BUCKET in its environment). stripeSecret: the function calls Stripe or checks its webhook signatures, so it may read the stage's Stripe secret (secretsmanager:GetSecretValue on that secret alone, STRIPE_SECRET_ARN in its environment). publishBuild: the function publishes the catalogue through the stage's CodeBuild publish project (codebuild:StartBuild, ListBuildsForProject and BatchGetBuilds on that project, logs:GetLogEvents on its log group, and PUBLISH_PROJECT in its environment). docs/infrastructure.md has the table a test keeps equal to this file.`

// EncodeDeployment writes d as endpoints.json: one line per function, keys in a fixed
// order, so a change to one endpoint is a one-line diff.
func EncodeDeployment(d Deployment) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"$comment\": " + jsonText(deploymentComment) + ",\n  \"endpoints\": [\n")
	writeFunctions(&b, d.Endpoints)
	b.WriteString("  ],\n  \"jobs\": [\n")
	writeFunctions(&b, d.Jobs)
	b.WriteString("  ]\n}\n")
	return b.Bytes()
}

// writeFunctions writes fs one per line, as endpoints.json lists them.
func writeFunctions(b *bytes.Buffer, fs []DeployedFunction) {
	for i, f := range fs {
		b.WriteString("    {\"name\": " + jsonText(f.Name) + ", \"group\": " + jsonText(f.Group))
		if len(f.Routes) > 0 {
			b.WriteString(", \"routes\": " + jsonList(f.Routes))
		}
		if f.MemoryMB != 0 {
			fmt.Fprintf(b, ", \"memoryMB\": %d", f.MemoryMB)
		}
		if f.TimeoutSeconds != 0 {
			fmt.Fprintf(b, ", \"timeoutSeconds\": %d", f.TimeoutSeconds)
		}
		fmt.Fprintf(b, ", \"csrfSecret\": %t", f.CSRFSecret)
		if f.MediaBucket {
			b.WriteString(", \"mediaBucket\": true")
		}
		if f.StripeSecret {
			b.WriteString(", \"stripeSecret\": true")
		}
		if f.PublishBuild {
			b.WriteString(", \"publishBuild\": true")
		}
		grants := make([]string, len(f.Access))
		for j, g := range f.Access {
			if g.Index != "" {
				grants[j] = "{ \"actions\": " + jsonList(g.Actions) + ", \"index\": " + jsonText(g.Index) + "}"
			} else {
				grants[j] = "{ \"actions\": " + jsonList(g.Actions) + ", \"keys\": " + jsonList(g.Keys) + " }"
			}
		}
		b.WriteString(", \"access\": [" + strings.Join(grants, ", ") + "] }")
		if i < len(fs)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
}

// jsonText is s as a JSON string, without HTML escaping.
func jsonText(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err) // a Go string always encodes
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonList is ss as a JSON array of strings on one line.
func jsonList(ss []string) string {
	quoted := make([]string, len(ss))
	for i, s := range ss {
		quoted[i] = jsonText(s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
