package main

// FerretDB 1.24 on SQLite runs only a filter of exactly `{_id}` in SQL: any
// other filter, every sort and every count decodes the whole collection in
// Go, so a list's cost grows with the collection. The planner below writes
// the reads offerops makes (top-level scalar conditions, `$or`/`$and`, sort,
// skip, limit) as SQL over FerretDB's tables, where the index twins of
// twins.go serve them, and reads the matching `_id`s; the documents themselves
// still come from FerretDB, each by `_id`. A read it cannot write exactly is
// relayed to FerretDB as it came.
//
// Fields are read as `_ferretdb_sjson->>'$.f'`: strings as text, numbers and
// dates (stored as milliseconds) as numbers, booleans as 1/0, null or missing
// as NULL. Every condition is true or false, never NULL (`IS`, not `=`), so
// that `$nor` of a condition on a missing field is true, as in MongoDB. A condition on a field holding an array or a document is not
// MongoDB's (which matches elements): offerops filters and sorts only on
// scalar fields, and the store's conformance suite checks each query shape
// it sends against FerretDB's own answer.

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/bsontype"
)

// maxPlannedLimit bounds the documents one planned find returns (all in its first batch).
const maxPlannedLimit = 1000

// maxInValues bounds the values of one `$in` or `$nin` the planner writes as SQL.
const maxInValues = 1000

var plainField = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// fieldSQL is how a top-level field reads in SQL; twins.go indexes the same text, which SQLite matches literally.
func fieldSQL(field string) string { return "_ferretdb_sjson->>'$." + field + "'" }

// query is a planned read: a WHERE clause with its arguments and an ORDER BY (both may be empty).
type query struct {
	where   string
	args    []any
	orderBy string
}

// errNotPlanned says the planner cannot write a read exactly: it goes to FerretDB unchanged.
type errNotPlanned string

func (e errNotPlanned) Error() string { return "not planned: " + string(e) }

// scalars are the fields of a table the planner may read: those the embedding watches for arrays and
// documents (twins.go) that hold neither in any document.
type scalars map[string]bool

// planFilter writes a MongoDB filter as a WHERE clause ("" for an empty filter).
func planFilter(filter bson.Raw, fields scalars) (string, []any, error) {
	elems, err := filter.Elements()
	if err != nil {
		return "", nil, err
	}
	var parts []string
	var args []any
	for _, e := range elems {
		key, val := e.Key(), e.Value()
		var sql string
		var a []any
		switch {
		case key == "$or" || key == "$and" || key == "$nor":
			sql, a, err = planLogical(key, val, fields)
		case key == "_id":
			sql, a, err = planID(val, fields)
		case fields[key]:
			sql, a, err = planField(key, val)
		default:
			err = errNotPlanned("field " + key)
		}
		if err != nil {
			return "", nil, err
		}
		parts = append(parts, sql)
		args = append(args, a...)
	}
	return strings.Join(parts, " AND "), args, nil
}

func planLogical(op string, val bson.RawValue, fields scalars) (string, []any, error) {
	arr, ok := val.ArrayOK()
	if !ok {
		return "", nil, errNotPlanned(op + " without an array")
	}
	values, err := arr.Values()
	if err != nil || len(values) == 0 {
		return "", nil, errNotPlanned(op + " empty")
	}
	var parts []string
	var args []any
	for _, v := range values {
		doc, ok := v.DocumentOK()
		if !ok {
			return "", nil, errNotPlanned(op + " of a non-document")
		}
		sql, a, err := planFilter(doc, fields)
		if err != nil {
			return "", nil, err
		}
		if sql == "" {
			sql = "1"
		}
		parts = append(parts, "("+sql+")")
		args = append(args, a...)
	}
	switch op {
	case "$or":
		return "(" + strings.Join(parts, " OR ") + ")", args, nil
	case "$nor":
		return "NOT (" + strings.Join(parts, " OR ") + ")", args, nil
	}
	return "(" + strings.Join(parts, " AND ") + ")", args, nil
}

// idSQL is FerretDB's own expression for `_id` (the JSON text of the value), which the embedding indexes
// (twins.go): fieldSQL's for `_id` would scan the table.
const idSQL = "_ferretdb_sjson->'$._id'"

// stringIDs are the values of `val`, as the condition on `_id`, when it is a string or `{$in: [strings]}` (at most
// maxInValues); ok is false for any other condition.
func stringIDs(val bson.RawValue) (ids []string, ok bool) {
	if s, isString := val.StringValueOK(); isString {
		return []string{s}, true
	}
	doc, isDoc := val.DocumentOK()
	if !isDoc {
		return nil, false
	}
	elems, err := doc.Elements()
	if err != nil || len(elems) != 1 || elems[0].Key() != "$in" {
		return nil, false
	}
	arr, isArray := elems[0].Value().ArrayOK()
	if !isArray {
		return nil, false
	}
	values, err := arr.Values()
	if err != nil || len(values) > maxInValues {
		return nil, false
	}
	ids = make([]string, 0, len(values))
	for _, v := range values {
		s, isString := v.StringValueOK()
		if !isString {
			return nil, false
		}
		ids = append(ids, s)
	}
	return ids, true
}

// planID writes the condition on `_id`: a string or `$in` of strings as FerretDB compares `_id` (its expression
// against each string as FerretDB encodes it, encoding/json), so that the embedding's `_id` index serves it; any
// other condition as on another field.
func planID(val bson.RawValue, fields scalars) (string, []any, error) {
	ids, ok := stringIDs(val)
	if !ok {
		if !fields["_id"] {
			return "", nil, errNotPlanned("field _id")
		}
		return planField("_id", val)
	}
	if len(ids) == 0 {
		return "0", nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		text, _ := json.Marshal(id) // a string always encodes
		args[i] = string(text)
	}
	return idSQL + " IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ") + ")", args, nil
}

// planField writes the conditions on one field: a value (equality) or a document of operators.
func planField(field string, val bson.RawValue) (string, []any, error) {
	x := fieldSQL(field)
	if val.Type == bsontype.Regex {
		pattern, options := val.Regex()
		return planRegex(x, pattern, options)
	}
	doc, isDoc := val.DocumentOK()
	if !isDoc || !isOperatorDoc(doc) {
		return planCompare(x, "$eq", val)
	}
	elems, err := doc.Elements()
	if err != nil {
		return "", nil, err
	}
	var parts []string
	var args []any
	options, hasOptions := "", false
	if o, err := doc.LookupErr("$options"); err == nil {
		if options, hasOptions = o.StringValueOK(); !hasOptions {
			return "", nil, errNotPlanned("$options not a string")
		}
	}
	for _, e := range elems {
		var sql string
		var a []any
		switch op := e.Key(); op {
		case "$options":
			continue
		case "$regex":
			pattern, ok := e.Value().StringValueOK()
			if !ok {
				if e.Value().Type != bsontype.Regex {
					return "", nil, errNotPlanned("$regex of another type")
				}
				var own string
				pattern, own = e.Value().Regex()
				if !hasOptions {
					options = own
				}
			}
			sql, a, err = planRegex(x, pattern, options)
		case "$in", "$nin":
			sql, a, err = planIn(x, op, e.Value())
		case "$exists":
			if e.Value().Type != bsontype.Boolean {
				return "", nil, errNotPlanned("$exists not a boolean")
			}
			not := map[bool]string{true: "NOT ", false: ""}[e.Value().Boolean()]
			sql = fmt.Sprintf("json_type(_ferretdb_sjson, '$.%s') IS %sNULL", field, not)
		default:
			sql, a, err = planCompare(x, op, e.Value())
		}
		if err != nil {
			return "", nil, err
		}
		parts = append(parts, sql)
		args = append(args, a...)
	}
	if len(parts) == 0 {
		return "", nil, errNotPlanned("no condition")
	}
	return "(" + strings.Join(parts, " AND ") + ")", args, nil
}

// isOperatorDoc: a document whose keys are all operators (a document value is equality on a document).
func isOperatorDoc(doc bson.Raw) bool {
	elems, err := doc.Elements()
	if err != nil || len(elems) == 0 {
		return false
	}
	for _, e := range elems {
		if !strings.HasPrefix(e.Key(), "$") {
			return false
		}
	}
	return true
}

// scalar is a filter value as SQL reads the stored field: kind says which values compare with it
// (MongoDB compares within a type bracket only).
func scalar(v bson.RawValue) (arg any, kind string, err error) {
	switch v.Type {
	case bsontype.String:
		return v.StringValue(), "text", nil
	case bsontype.Int32:
		return int64(v.Int32()), "number", nil
	case bsontype.Int64:
		return v.Int64(), "number", nil
	case bsontype.Double:
		f := v.Double()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, "", errNotPlanned("a non-finite double")
		}
		return f, "number", nil
	case bsontype.DateTime:
		return v.DateTime(), "number", nil
	case bsontype.Boolean:
		if v.Boolean() {
			return int64(1), "number", nil
		}
		return int64(0), "number", nil
	case bsontype.Null:
		return nil, "null", nil
	}
	return nil, "", errNotPlanned("a value of type " + v.Type.String())
}

var typeOf = map[string]string{"text": "'text'", "number": "'integer', 'real'"}

func planCompare(x, op string, v bson.RawValue) (string, []any, error) {
	arg, kind, err := scalar(v)
	if err != nil {
		return "", nil, err
	}
	if kind == "null" {
		switch op {
		case "$eq", "$gte", "$lte":
			return x + " IS NULL", nil, nil
		case "$ne":
			return x + " IS NOT NULL", nil, nil
		case "$gt", "$lt":
			return "0", nil, nil
		}
		return "", nil, errNotPlanned("operator " + op)
	}
	switch op {
	case "$eq":
		return x + " IS ?", []any{arg}, nil
	case "$ne":
		return x + " IS NOT ?", []any{arg}, nil
	}
	sqlOp := map[string]string{"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}[op]
	if sqlOp == "" {
		return "", nil, errNotPlanned("operator " + op)
	}
	// A range compares within its type: 5 is not less than "a" in MongoDB, though it is in SQLite.
	return fmt.Sprintf("(typeof(%s) IN (%s) AND %s %s ?)", x, typeOf[kind], x, sqlOp), []any{arg}, nil
}

func planIn(x, op string, v bson.RawValue) (string, []any, error) {
	arr, ok := v.ArrayOK()
	if !ok {
		return "", nil, errNotPlanned(op + " without an array")
	}
	values, err := arr.Values()
	if err != nil || len(values) > maxInValues {
		return "", nil, errNotPlanned(op + " too long")
	}
	var args []any
	withNull := false
	for _, value := range values {
		arg, kind, err := scalar(value)
		if err != nil {
			return "", nil, err
		}
		if kind == "null" {
			withNull = true
			continue
		}
		args = append(args, arg)
	}
	in := "0"
	if len(args) > 0 {
		in = "(" + x + " IS NOT NULL AND " + x + " IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ") + "))"
	}
	if op == "$in" {
		if withNull {
			return "(" + in + " OR " + x + " IS NULL)", args, nil
		}
		return in, args, nil
	}
	if withNull {
		return "(" + x + " IS NOT NULL AND NOT " + in + ")", args, nil
	}
	return "(" + x + " IS NULL OR NOT " + in + ")", args, nil
}

// planRegex matches text with Go's regexp (RE2): the flags it shares with MongoDB's PCRE, and no pattern
// whose meaning differs between them.
func planRegex(x, pattern, options string) (string, []any, error) {
	flags := ""
	for _, o := range options {
		if !strings.ContainsRune("ims", o) {
			return "", nil, errNotPlanned("regex option " + string(o))
		}
		flags += string(o)
	}
	if strings.ContainsAny(pattern, "\\") && !literalEscapes(pattern) {
		return "", nil, errNotPlanned("regex escapes")
	}
	if _, err := compiledRegex(pattern, flags); err != nil {
		return "", nil, errNotPlanned("regex RE2 cannot compile")
	}
	return fmt.Sprintf("(typeof(%s) = 'text' AND offerops_regex(%s, ?, ?))", x, x), []any{pattern, flags}, nil
}

// escapedPunctuation: the characters a backslash may escape in a planned pattern; escaped, each means itself in
// both dialects (classes such as \d or \w differ: PCRE's \s, for one, is not RE2's).
const escapedPunctuation = `.*+?^${}()|[]\/-`

// literalEscapes: every backslash escapes one of escapedPunctuation.
func literalEscapes(pattern string) bool {
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '\\' {
			continue
		}
		if i+1 >= len(pattern) || strings.IndexByte(escapedPunctuation, pattern[i+1]) < 0 {
			return false
		}
		i++
	}
	return true
}

var regexCache sync.Map // "flags/pattern" → *matcher

// matcher is a compiled pattern. A literal searched case-insensitively (an offer search, escaped by the store) is
// also kept lower-cased: in ASCII text, RE2's (?i) can only match it as an ASCII case-folded substring (the
// non-ASCII letters it also folds to, such as K's Kelvin sign or s's long s, are not in such text), which is
// ten times faster to look for than running the pattern.
type matcher struct {
	re *regexp.Regexp
	// foldedLiteral: the pattern's literal, lower-cased, when it is an ASCII literal under (?i); else "".
	foldedLiteral string
}

func (m *matcher) MatchString(text string) bool {
	if m.foldedLiteral != "" && isASCII(text) {
		return containsFoldedASCII(text, m.foldedLiteral)
	}
	return m.re.MatchString(text)
}

func compiledRegex(pattern, flags string) (*matcher, error) {
	key := flags + "/" + pattern
	if m, ok := regexCache.Load(key); ok {
		return m.(*matcher), nil
	}
	prefix := ""
	if flags != "" {
		prefix = "(?" + flags + ")"
	}
	re, err := regexp.Compile(prefix + pattern)
	if err != nil {
		return nil, err
	}
	m := &matcher{re: re}
	if literal, ok := asciiLiteral(pattern); ok && literal != "" && strings.Contains(flags, "i") {
		m.foldedLiteral = strings.ToLower(literal)
	}
	regexCache.Store(key, m)
	return m, nil
}

// asciiLiteral is the text a pattern of ASCII characters matches when it holds no operator (a backslash
// escaping a punctuation character stands for it); ok is false for any other pattern.
func asciiLiteral(pattern string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c >= 0x80:
			return "", false
		case c == '\\':
			if i+1 >= len(pattern) || strings.IndexByte(escapedPunctuation, pattern[i+1]) < 0 {
				return "", false
			}
			i++
			b.WriteByte(pattern[i])
		case strings.IndexByte(`.*+?^${}()|[]`, c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// containsFoldedASCII: whether ASCII text holds `lower` (lower-case ASCII) ignoring ASCII case.
func containsFoldedASCII(text, lower string) bool {
	n := len(lower)
	for i := 0; i+n <= len(text); i++ {
		j := 0
		for ; j < n; j++ {
			c := text[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}

// planSort writes a sort document as ORDER BY ("" for none).
func planSort(sort bson.Raw, fields scalars) (string, error) {
	elems, err := sort.Elements()
	if err != nil {
		return "", err
	}
	var parts []string
	for _, e := range elems {
		if !fields[e.Key()] {
			return "", errNotPlanned("sort on " + e.Key())
		}
		dir, ok := e.Value().AsInt64OK()
		if !ok || (dir != 1 && dir != -1) {
			return "", errNotPlanned("sort direction")
		}
		parts = append(parts, fieldSQL(e.Key())+map[int64]string{1: " ASC", -1: " DESC"}[dir])
	}
	return strings.Join(parts, ", "), nil
}
