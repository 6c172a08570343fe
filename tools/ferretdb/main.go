// Command offerops-ferretdb embeds FerretDB (SQLite backend) so the offerops
// stack can speak the MongoDB wire protocol on machines without mongod.
//
// It listens on --listen (port 0 picks a free one), stores data under --dir,
// prints one line "mongodb://HOST:PORT/" on stdout once it accepts
// connections, and stops on SIGINT/SIGTERM or when its stdin closes.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCP address to listen on")
	dir := flag.String("dir", "", "directory for the SQLite files (required)")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()

	if *dir == "" {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb: --dir is required")
		os.Exit(2)
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb:", err)
		os.Exit(2)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb:", err)
		os.Exit(1)
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb: bad --log-level:", err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb:", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// The parent owns us: when it goes away (stdin reaches EOF) we stop too,
	// so a killed supervisor never leaves an orphan database behind.
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()

	done := make(chan struct{})
	go func() {
		_ = f.Run(ctx)
		close(done)
	}()

	// MongoDBURI waits for the listener, so the line means "ready".
	fmt.Println(f.MongoDBURI())

	<-done
}
