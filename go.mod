module github.com/pinholectx/pinhole

go 1.26.8

require (
	github.com/mailru/easyjson v0.9.2
	github.com/syumai/workers v0.31.0
	github.com/tetratelabs/wazero v1.12.0
)

require golang.org/x/sys v0.44.0 // indirect
