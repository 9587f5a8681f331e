// Package emfcheck checks log lines against the CloudWatch Embedded Metric Format
// specification, for the tests of the packages that write metrics.
package emfcheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Units are the units the EMF specification allows.
var Units = []string{"Seconds", "Microseconds", "Milliseconds", "Bytes", "Kilobytes", "Megabytes", "Gigabytes",
	"Terabytes", "Bits", "Kilobits", "Megabits", "Gigabits", "Terabits", "Percent", "Count", "Bytes/Second",
	"Kilobytes/Second", "Megabytes/Second", "Gigabytes/Second", "Terabytes/Second", "Bits/Second",
	"Kilobits/Second", "Megabits/Second", "Gigabits/Second", "Terabits/Second", "Count/Second", "None"}

// Line checks one log line against the EMF specification
// (CloudWatch_Embedded_Metric_Format_Specification.html): a JSON object whose _aws holds a
// Timestamp in epoch milliseconds and a CloudWatchMetrics list of directives, each with a
// Namespace of 1 to 255 characters, Dimensions (a list of at most 30 keys each, every key
// naming a string member of the object) and Metrics (at most 100, each with a Name of 1
// to 255 characters naming a member that is a number or a list of at most 100 numbers,
// and a Unit from the specification's list). It answers the line's members.
func Line(t *testing.T, line []byte) map[string]any {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(line, &root); err != nil {
		t.Fatalf("not a JSON object: %v: %s", err, line)
	}
	meta, ok := root["_aws"].(map[string]any)
	if !ok {
		t.Fatalf("no _aws object: %s", line)
	}
	if ts, ok := meta["Timestamp"].(float64); !ok || ts < 1e12 || ts != float64(int64(ts)) {
		t.Errorf("_aws.Timestamp %v is not epoch milliseconds", meta["Timestamp"])
	}
	dirs, ok := meta["CloudWatchMetrics"].([]any)
	if !ok || len(dirs) == 0 {
		t.Fatalf("_aws.CloudWatchMetrics is not a non-empty list: %s", line)
	}
	for _, d := range dirs {
		dir, ok := d.(map[string]any)
		if !ok {
			t.Fatalf("a directive is not an object: %s", line)
		}
		ns, _ := dir["Namespace"].(string)
		if len(ns) < 1 || len(ns) > 255 || strings.TrimSpace(ns) == "" {
			t.Errorf("Namespace %q", ns)
		}
		sets, ok := dir["Dimensions"].([]any)
		if !ok {
			t.Fatalf("Dimensions is not a list: %s", line)
		}
		for _, s := range sets {
			keys, ok := s.([]any)
			if !ok || len(keys) > 30 {
				t.Fatalf("a dimension set is not a list of at most 30 keys: %s", line)
			}
			for _, k := range keys {
				name, _ := k.(string)
				if v, ok := root[name].(string); !ok || v == "" {
					t.Errorf("dimension %q has no string member: %s", name, line)
				}
			}
		}
		ms, ok := dir["Metrics"].([]any)
		if !ok || len(ms) == 0 || len(ms) > 100 {
			t.Fatalf("Metrics is not a list of 1 to 100: %s", line)
		}
		for _, m := range ms {
			def, _ := m.(map[string]any)
			name, _ := def["Name"].(string)
			if len(name) < 1 || len(name) > 255 {
				t.Errorf("metric Name %q", name)
			}
			if u, ok := def["Unit"]; ok && !slices.Contains(Units, fmt.Sprint(u)) {
				t.Errorf("metric %s Unit %v is not an EMF unit", name, u)
			}
			switch v := root[name].(type) {
			case float64:
			case []any:
				if len(v) == 0 || len(v) > 100 {
					t.Errorf("metric %s has %d values", name, len(v))
				}
				for _, x := range v {
					if _, ok := x.(float64); !ok {
						t.Errorf("metric %s value %v is no number", name, x)
					}
				}
			default:
				t.Errorf("metric %s has no numeric member (%v): %s", name, root[name], line)
			}
		}
	}
	return root
}

// Metrics is each metric of an EMF line: its unit and dimension sets.
func Metrics(root map[string]any) map[string]string {
	out := map[string]string{}
	for _, d := range root["_aws"].(map[string]any)["CloudWatchMetrics"].([]any) {
		dir := d.(map[string]any)
		sets, _ := json.Marshal(dir["Dimensions"])
		for _, m := range dir["Metrics"].([]any) {
			def := m.(map[string]any)
			out[def["Name"].(string)] = fmt.Sprintf("%v %s", def["Unit"], sets)
		}
	}
	return out
}
