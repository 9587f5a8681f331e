// Package awssecret reads a secret's string from AWS Secrets Manager: the SMTP credentials
// (package mail) and the Stripe keys (package cardpay), each read once at a function's cold
// start. The value is the caller's to parse; nothing here logs or quotes it.
package awssecret

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
)

// String answers the SecretString of secret arn in region; what names the secret in the
// error ("the Stripe secret").
func String(ctx context.Context, region, arn, what string) (string, error) {
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(region))
	if err != nil {
		return "", fmt.Errorf("load aws config: %w", err)
	}
	out, err := secretsmanager.NewFromConfig(cfg).GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(arn)})
	if err != nil {
		return "", fmt.Errorf("read %s %s: %w", what, arn, err)
	}
	return aws.ToString(out.SecretString), nil
}
