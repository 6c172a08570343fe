package main

// The planned read path: a `find` or a counting `aggregate` the planner can
// write (pushdown.go) is answered here, from SQL over the database's file and
// FerretDB's reads by `_id`, in the reply MongoDB would give.

import (
	"bufio"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/bsontype"
	sqlite "modernc.org/sqlite"
)

// noPlanComment on a read sends it to FerretDB as it came: the conformance suite compares both answers,
// and knows a planned answer by its planMark field (drivers pass over fields they do not know).
// explainComment adds SQLite's query plan to a planned answer, in the field queryPlanField.
const (
	noPlanComment  = "offerops:no-plan"
	explainComment = "offerops:explain"
	planMark       = "offeropsPlan"
	queryPlanField = "offeropsQueryPlan"
)

func init() {
	err := sqlite.RegisterDeterministicScalarFunction("offerops_regex", 3, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		text, _ := args[0].(string)
		pattern, _ := args[1].(string)
		flags, _ := args[2].(string)
		re, err := compiledRegex(pattern, flags)
		if err != nil {
			return nil, err
		}
		return re.MatchString(text), nil
	})
	if err != nil {
		panic(err)
	}
}

// reads answers planned reads; one per embedding, shared by its connections.
type reads struct {
	dir       string
	mu        sync.Mutex
	databases map[string]pool
	nextID    atomic.Int32
}

// pool reads one database file, the one that was there when it opened (a dropped database's file is
// removed and a new one made: the pool must not read the removed one).
type pool struct {
	db   *sql.DB
	file os.FileInfo
}

func newReads(dir string) *reads { return &reads{dir: dir, databases: map[string]pool{}} }

// database is a pool over one database's file (FerretDB keeps one file per database).
func (r *reads) database(name string) (*sql.DB, error) {
	if !plainField.MatchString(strings.ReplaceAll(name, "-", "_")) {
		return nil, errNotPlanned("database name " + name)
	}
	file := filepath.Join(r.dir, name+".sqlite")
	info, err := os.Stat(file)
	if err != nil {
		return nil, err // no database yet: FerretDB answers
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.databases[name]; ok {
		if os.SameFile(p.file, info) {
			return p.db, nil
		}
		p.db.Close()
	}
	// mode=rw: a database removed meanwhile is not created again (FerretDB answers for it).
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(10000)&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	r.databases[name] = pool{db: db, file: info}
	return db, nil
}

// request is what a planned read needs of a command.
type request struct {
	id             int32
	db, collection string
	filter, sort   bson.Raw
	query          query
	projection     bson.Raw
	skip, limit    int64
	count          bool // a countDocuments: `{_id: 1, n}` instead of documents
	countName      string
	explain        bool
	queryPlan      bson.A // SQLite's, when asked
	deadline       time.Duration
}

// answer serves req from SQL when the planner can write it: the reply, or nil to relay it to FerretDB.
// An error means the connection to FerretDB broke.
func (r *reads) answer(req []byte, c message, server net.Conn, back *bufio.Reader) ([]byte, error) {
	if c.flags != 0 || (c.command != "find" && c.command != "aggregate") {
		return nil, nil
	}
	body := singleBody(req)
	if body == nil {
		return nil, nil
	}
	planned, err := parseRead(c.command, body)
	if err != nil {
		return nil, nil
	}
	planned.id = int32(binary.LittleEndian.Uint32(req[4:8]))
	planned.db, planned.collection = c.db, c.collection
	ctx, cancel := context.WithTimeout(context.Background(), planned.deadline)
	defer cancel()
	ids, count, err := r.run(ctx, planned)
	if errors.Is(err, context.DeadlineExceeded) {
		return r.message(planned.id, bson.D{{Key: "ok", Value: 0.0}, {Key: "errmsg", Value: "operation exceeded time limit"},
			{Key: "code", Value: int32(50)}, {Key: "codeName", Value: "MaxTimeMSExpired"}})
	}
	if err != nil {
		return nil, nil
	}
	ns := planned.db + "." + planned.collection
	var batch bson.A
	if planned.count {
		if count > 0 {
			batch = bson.A{bson.D{{Key: "_id", Value: int32(1)}, {Key: planned.countName, Value: count}}}
		}
	} else if batch, err = r.fetch(planned, ids, server, back); err != nil {
		var refused errNotPlanned
		if errors.As(err, &refused) {
			return nil, nil // FerretDB answers the read as it came, with its own error
		}
		return nil, err
	}
	if batch == nil {
		batch = bson.A{}
	}
	cursor := bson.D{{Key: "firstBatch", Value: batch}, {Key: "id", Value: int64(0)}, {Key: "ns", Value: ns}}
	reply := bson.D{{Key: "cursor", Value: cursor}, {Key: planMark, Value: "sql"}}
	if planned.explain {
		reply = append(reply, bson.E{Key: queryPlanField, Value: planned.queryPlan})
	}
	return r.message(planned.id, append(reply, bson.E{Key: "ok", Value: 1.0}))
}

// singleBody is an OP_MSG's command document when it has no other section, else nil.
func singleBody(msg []byte) bson.Raw {
	if len(msg) < 26 || msg[20] != 0 {
		return nil
	}
	size := int(binary.LittleEndian.Uint32(msg[21:25]))
	if 21+size != len(msg) {
		return nil
	}
	return bson.Raw(msg[21:])
}

// The fields of a find or an aggregate the planner honours (or may pass over); any other sends the command to
// FerretDB (an `explain: true`, a `hint`, a collation…).
var (
	commonOptions = []string{"maxTimeMS", "$db", "lsid", "$clusterTime", "readConcern", "$readPreference", "comment"}
	findOptions   = options(append([]string{"find", "filter", "sort", "projection", "skip", "limit", "batchSize", "singleBatch"}, commonOptions...))
	countOptions  = options(append([]string{"aggregate", "pipeline", "cursor"}, commonOptions...))
)

func options(names []string) map[string]bool {
	set := map[string]bool{}
	for _, name := range names {
		set[name] = true
	}
	return set
}

// onlyOptions: every field of the command is one of these.
func onlyOptions(body bson.Raw, allowed map[string]bool) error {
	elems, err := body.Elements()
	if err != nil {
		return err
	}
	for _, e := range elems {
		if !allowed[e.Key()] {
			return errNotPlanned("option " + e.Key())
		}
	}
	return nil
}

func parseRead(command string, body bson.Raw) (*request, error) {
	comment, _ := body.Lookup("comment").StringValueOK()
	if comment == noPlanComment {
		return nil, errNotPlanned("asked")
	}
	p := &request{deadline: 30 * time.Second, explain: comment == explainComment}
	if ms, ok := body.Lookup("maxTimeMS").AsInt64OK(); ok && ms > 0 {
		p.deadline = time.Duration(ms) * time.Millisecond
	}
	if command == "aggregate" {
		if err := onlyOptions(body, countOptions); err != nil {
			return nil, err
		}
		return p, parseCount(body, p)
	}
	if err := onlyOptions(body, findOptions); err != nil {
		return nil, err
	}
	filter, _ := body.Lookup("filter").DocumentOK()
	sort, _ := body.Lookup("sort").DocumentOK()
	if isIDLookup(filter) && isEmpty(sort) {
		return nil, errNotPlanned("FerretDB serves {_id} itself")
	}
	p.limit, _ = body.Lookup("limit").AsInt64OK()
	if p.limit < 0 {
		p.limit = -p.limit
	}
	if p.limit == 0 || p.limit > maxPlannedLimit {
		return nil, errNotPlanned("no bound on the documents")
	}
	p.skip, _ = body.Lookup("skip").AsInt64OK()
	p.projection, _ = body.Lookup("projection").DocumentOK()
	p.filter, p.sort = filter, sort
	return p, nil
}

// parseCount takes the pipeline the drivers' countDocuments sends: a `$match`, an optional `$skip` and
// `$limit`, then `{$group: {_id: 1, n: {$sum: 1}}}`.
func parseCount(body bson.Raw, p *request) error {
	pipeline, ok := body.Lookup("pipeline").ArrayOK()
	if !ok {
		return errNotPlanned("no pipeline")
	}
	stages, err := pipeline.Values()
	if err != nil || len(stages) < 2 || len(stages) > 4 {
		return errNotPlanned("pipeline shape")
	}
	docs := make([]bson.Raw, len(stages))
	for i, stage := range stages {
		if docs[i], ok = stage.DocumentOK(); !ok {
			return errNotPlanned("a stage not a document")
		}
	}
	match, ok := docs[0].Lookup("$match").DocumentOK()
	if !ok {
		return errNotPlanned("no $match first")
	}
	for _, stage := range docs[1 : len(docs)-1] {
		elems, err := stage.Elements()
		if err != nil || len(elems) != 1 {
			return errNotPlanned("pipeline stage")
		}
		n, ok := elems[0].Value().AsInt64OK()
		switch {
		case ok && elems[0].Key() == "$skip" && n >= 0 && p.limit == 0: // a $skip after a $limit is not OFFSET
			p.skip = n
		case ok && elems[0].Key() == "$limit" && n > 0:
			p.limit = n
		default:
			return errNotPlanned("pipeline stage")
		}
	}
	group, ok := docs[len(docs)-1].Lookup("$group").DocumentOK()
	if !ok {
		return errNotPlanned("no $group last")
	}
	fields, err := group.Elements()
	if err != nil || len(fields) != 2 || fields[0].Key() != "_id" {
		return errNotPlanned("group shape")
	}
	if key, ok := fields[0].Value().AsInt64OK(); !ok || key != 1 {
		return errNotPlanned("group key")
	}
	sum, ok := fields[1].Value().DocumentOK()
	if !ok {
		return errNotPlanned("group sum")
	}
	if one, ok := sum.Lookup("$sum").AsInt64OK(); !ok || one != 1 {
		return errNotPlanned("group sum")
	}
	p.count, p.countName = true, fields[1].Key()
	p.filter = match
	return nil
}

// isEmpty: absent, or a document without fields.
func isEmpty(doc bson.Raw) bool {
	if doc == nil {
		return true
	}
	elems, err := doc.Elements()
	return err == nil && len(elems) == 0
}

func isIDLookup(filter bson.Raw) bool {
	elems, err := filter.Elements()
	if err != nil || len(elems) != 1 || elems[0].Key() != "_id" {
		return false
	}
	t := elems[0].Value().Type
	return t != bsontype.EmbeddedDocument && t != bsontype.Array && t != bsontype.Regex
}

func planQuery(p *request, fields scalars) error {
	var err error
	if p.filter != nil {
		if p.query.where, p.query.args, err = planFilter(p.filter, fields); err != nil {
			return err
		}
	}
	if p.sort != nil {
		p.query.orderBy, err = planSort(p.sort, fields)
	}
	return err
}

// scalarFields are the fields of table the planner may read (see scalars): watched by the table's triggers
// (which a dropped and re-created table has not until the next sweep), and holding no array or document.
func scalarFields(ctx context.Context, db *sql.DB, table string) (scalars, error) {
	rows, err := db.QueryContext(ctx, fmt.Sprintf(`SELECT w.field FROM %q w
		WHERE w.tbl = ?1 AND NOT EXISTS (SELECT 1 FROM %q a WHERE a.tbl = ?1 AND a.field = w.field)
		AND EXISTS (SELECT 1 FROM sqlite_master m WHERE m.type = 'trigger' AND m.name = ?2)`, watchedTable, arraysTable),
		table, arraysPrefix+table)
	if err != nil {
		return nil, err // before the first triggers, no tables of ours: nothing is read as a scalar yet
	}
	defer rows.Close()
	fields := scalars{}
	for rows.Next() {
		var field string
		if err := rows.Scan(&field); err != nil {
			return nil, err
		}
		fields[field] = true
	}
	return fields, rows.Err()
}

// run reads the matching `_id`s in order (or, for a count, how many match).
func (r *reads) run(ctx context.Context, p *request) ([]string, int64, error) {
	db, err := r.database(p.db)
	if err != nil {
		return nil, 0, err
	}
	var table string
	if err := db.QueryRowContext(ctx, `SELECT table_name FROM _ferretdb_collections WHERE name = ?`, p.collection).Scan(&table); err != nil {
		return nil, 0, err // no such collection (FerretDB answers), or no database yet
	}
	fields, err := scalarFields(ctx, db, table)
	if err != nil {
		return nil, 0, err
	}
	if err := planQuery(p, fields); err != nil {
		return nil, 0, err
	}
	columns := `_ferretdb_sjson->>'$._id', _ferretdb_sjson->>'$."$s".p._id.t'`
	if p.count {
		columns = "1"
	}
	q := fmt.Sprintf(`SELECT %s FROM %q`, columns, table)
	if p.query.where != "" {
		q += " WHERE " + p.query.where
	}
	if p.query.orderBy != "" {
		q += " ORDER BY " + p.query.orderBy
	}
	args := p.query.args
	if p.limit > 0 || p.skip > 0 {
		limit := p.limit
		if limit == 0 {
			limit = -1
		}
		q += " LIMIT ? OFFSET ?"
		args = append(append([]any{}, args...), limit, p.skip)
	}
	if p.count {
		if p.limit == 0 && p.skip == 0 {
			q = "SELECT count(*)" + strings.TrimPrefix(q, "SELECT 1")
		} else {
			q = "SELECT count(*) FROM (" + q + ")"
		}
	}
	if p.explain {
		if p.queryPlan, err = explain(ctx, db, q, args); err != nil {
			return nil, 0, err
		}
	}
	if p.count {
		var n int64
		err := db.QueryRowContext(ctx, q, args...).Scan(&n)
		return nil, n, err
	}
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id, kind string
		if err := rows.Scan(&id, &kind); err != nil {
			return nil, 0, err
		}
		if kind != "string" {
			return nil, 0, errNotPlanned("an _id not a string")
		}
		ids = append(ids, id)
	}
	return ids, 0, rows.Err()
}

// fetch reads each document by `_id` from FerretDB (which serves that from SQL), with the read's projection.
// One gone meanwhile is left out, as a concurrent delete would leave it out of MongoDB's cursor.
func (r *reads) fetch(p *request, ids []string, server net.Conn, back *bufio.Reader) (bson.A, error) {
	batch := bson.A{}
	for _, id := range ids {
		cmd := bson.D{{Key: "find", Value: p.collection}, {Key: "filter", Value: bson.D{{Key: "_id", Value: id}}}}
		if p.projection != nil {
			cmd = append(cmd, bson.E{Key: "projection", Value: p.projection})
		}
		cmd = append(cmd, bson.E{Key: "limit", Value: int64(1)}, bson.E{Key: "singleBatch", Value: true}, bson.E{Key: "$db", Value: p.db})
		msg, err := r.message(0, cmd)
		if err != nil {
			return nil, err
		}
		if _, err := server.Write(msg); err != nil {
			return nil, err
		}
		reply, err := readMessage(back)
		if err != nil {
			return nil, err
		}
		body := singleBody(reply)
		if body == nil {
			return nil, errors.New("FerretDB's reply has no single body")
		}
		docs, ok := body.Lookup("cursor", "firstBatch").ArrayOK()
		if !ok {
			return nil, errNotPlanned("FerretDB refused a read by _id: " + body.Lookup("errmsg").String())
		}
		values, err := docs.Values()
		if err != nil {
			return nil, err
		}
		for _, v := range values {
			batch = append(batch, v.Document())
		}
	}
	return batch, nil
}

// message is an OP_MSG holding one command document, in reply to `to` (0: a request of ours).
func (r *reads) message(to int32, doc bson.D) ([]byte, error) {
	body, err := bson.Marshal(doc)
	if err != nil {
		return nil, err
	}
	msg := make([]byte, 21, 21+len(body))
	binary.LittleEndian.PutUint32(msg[0:4], uint32(21+len(body)))
	binary.LittleEndian.PutUint32(msg[4:8], uint32(r.nextID.Add(1)))
	binary.LittleEndian.PutUint32(msg[8:12], uint32(to))
	binary.LittleEndian.PutUint32(msg[12:16], opMsg)
	// flags (16:20) zero; section kind 0 at 20
	return append(msg, body...), nil
}

// explain is SQLite's plan of a query, a line per step.
func explain(ctx context.Context, db *sql.DB, q string, args []any) (bson.A, error) {
	rows, err := db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	lines := bson.A{}
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return nil, err
		}
		lines = append(lines, detail)
	}
	return lines, rows.Err()
}
