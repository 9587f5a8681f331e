package catimport_test

import "time"

var timeNow = time.Now

const minute = time.Minute
