package api

import (
	"testing"

	"github.com/tradeshop/functions/internal/apitypes"
)

// TestAnswerTypesKeepTheWireRules walks every registered answer type (answerTypes) and
// every type it holds, and fails on each breach of the wire rules (docs/api.md "The wire
// contract"; apitypes.WireProblems).
func TestAnswerTypesKeepTheWireRules(t *testing.T) {
	t.Parallel()
	for _, problem := range apitypes.WireProblems(AnswerTypes()...) {
		t.Error(problem)
	}
}
