// ECMA-402 `Intl` over ICU4X (`intl.rs`): NumberFormat, DateTimeFormat, Collator, PluralRules,
// ListFormat, RelativeTimeFormat, getCanonicalLocales and supportedLocalesOf, with
// Number/BigInt/Date toLocale*String and String#localeCompare on top. This layer reads each
// options bag as ECMA-402 does (defaults, ranges, conflicts) and refuses with a RangeError or
// TypeError, naming the option and what is supported, anything the native half cannot honour —
// never a silent approximation. The default locale is en-US; the default time zone is UTC.
(function intlLayer(native) {
  'use strict';
  const DEFAULT_LOCALE = 'en-US';

  const canonicalList = (locales) => {
    if (locales === undefined) return [];
    if (locales === null) throw new TypeError('Intl: locales must be a string, an array of strings or undefined, got null');
    const list = typeof locales === 'string' ? [locales] : Array.from(Object(locales));
    const seen = [];
    for (const tag of list) {
      if (typeof tag !== 'string' && (typeof tag !== 'object' || tag === null)) throw new TypeError(`Intl: a locale must be a string like "en-US", got ${tag === null ? 'null' : typeof tag}`);
      const c = native.canonical(String(tag));
      if (!seen.includes(c)) seen.push(c);
    }
    return seen;
  };
  const pick = (locales) => canonicalList(locales)[0] || DEFAULT_LOCALE;
  const bag = (options, who) => {
    if (options === undefined) return Object.create(null);
    if (options === null) throw new TypeError(`${who}: options must be an object, got null`);
    return Object(options);
  };
  const str = (o, name, allowed, fallback, who) => {
    const v = o[name];
    if (v === undefined) return fallback;
    const s = String(v);
    if (allowed && !allowed.includes(s)) throw new RangeError(`${who}: ${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}; got '${s}'`);
    return s;
  };
  const bool = (o, name, fallback) => (o[name] === undefined ? fallback : Boolean(o[name]));
  const int = (o, name, min, max, fallback, who) => {
    const v = o[name];
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max) throw new RangeError(`${who}: ${name} must be from ${min} to ${max}; got ${String(v)}`);
    return Math.floor(n);
  };
  // Options ECMA-402 defines that the sandbox does not implement: refused by name unless given
  // their default value.
  const unsupported = (o, who, table) => {
    for (const [name, allowed, why] of table) {
      if (o[name] !== undefined && !allowed.includes(String(o[name]))) throw new RangeError(`${who}: ${name}: '${String(o[name])}' is not supported in the sandbox (${why})`);
    }
  };
  const localeMatcher = (o, who) => str(o, 'localeMatcher', ['lookup', 'best fit'], 'best fit', who);
  const ICU = 'formatting is ICU4X with its compiled CLDR data';

  // ---- NumberFormat ----------------------------------------------------------------------
  // ISO 4217 minor units that are not 2 (the default fraction digits ECMA-402 takes from it).
  const CURRENCY_DIGITS = { BHD: 3, BIF: 0, CLF: 4, CLP: 0, DJF: 0, GNF: 0, IQD: 3, ISK: 0, JOD: 3, JPY: 0, KMF: 0, KRW: 0, KWD: 3, LYD: 3, OMR: 3, PYG: 0, RWF: 0, TND: 3, UGX: 0, UYI: 0, UYW: 4, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0 };
  class NumberFormat {
    #locale; #o;
    constructor(locales, options) {
      const who = 'Intl.NumberFormat';
      const o = bag(options, who);
      localeMatcher(o, who);
      this.#locale = pick(locales);
      unsupported(o, who, [
        ['numberingSystem', [], `the locale's own numbering system is used`],
        ['currencySign', ['standard'], 'only standard currency signs'],
        ['roundingMode', ['halfExpand'], 'rounding is halfExpand'],
        ['roundingIncrement', ['1'], 'rounding increments are 1'],
        ['roundingPriority', ['auto'], 'roundingPriority is auto'],
        ['trailingZeroDisplay', ['auto'], 'trailing zeros follow the fraction digits'],
      ]);
      const style = str(o, 'style', ['decimal', 'percent', 'currency', 'unit'], 'decimal', who);
      if (style === 'unit') throw new RangeError(`${who}: style 'unit' is not supported in the sandbox (supported: 'decimal', 'percent', 'currency')`);
      let currency = o.currency === undefined ? undefined : String(o.currency);
      if (currency !== undefined && !/^[A-Za-z]{3}$/.test(currency)) throw new RangeError(`${who}: currency must be a three-letter ISO 4217 code like 'EUR'; got '${currency}'`);
      if (currency !== undefined) currency = currency.toUpperCase();
      if (style === 'currency' && currency === undefined) throw new TypeError(`${who}: style 'currency' needs a currency option (an ISO 4217 code like 'USD')`);
      const currencyDisplay = str(o, 'currencyDisplay', ['symbol', 'narrowSymbol', 'code', 'name'], 'symbol', who);
      const notation = str(o, 'notation', ['standard', 'scientific', 'engineering', 'compact'], 'standard', who);
      if (notation === 'scientific' || notation === 'engineering') throw new RangeError(`${who}: notation '${notation}' is not supported in the sandbox (supported: 'standard', 'compact')`);
      const compactDisplay = str(o, 'compactDisplay', ['short', 'long'], 'short', who);
      const digitOptions = ['minimumIntegerDigits', 'minimumFractionDigits', 'maximumFractionDigits', 'minimumSignificantDigits', 'maximumSignificantDigits'];
      if (notation === 'compact') {
        if (style !== 'decimal') throw new RangeError(`${who}: notation 'compact' is supported with style 'decimal' only; got style '${style}'`);
        for (const d of digitOptions) if (o[d] !== undefined) throw new RangeError(`${who}: ${d} is not supported with notation 'compact' in the sandbox (compact numbers round as CLDR says)`);
      }
      const cDigits = style === 'currency' ? (CURRENCY_DIGITS[currency] ?? 2) : 0;
      const minimumIntegerDigits = int(o, 'minimumIntegerDigits', 1, 21, 1, who);
      let mnfd = int(o, 'minimumFractionDigits', 0, 100, undefined, who);
      let mxfd = int(o, 'maximumFractionDigits', 0, 100, undefined, who);
      const mnfdDefault = cDigits;
      const mxfdDefault = style === 'currency' ? cDigits : style === 'percent' ? 0 : 3;
      if (mnfd === undefined && mxfd === undefined) { mnfd = mnfdDefault; mxfd = mxfdDefault; }
      else if (mnfd === undefined) mnfd = Math.min(mnfdDefault, mxfd);
      else if (mxfd === undefined) mxfd = Math.max(mxfdDefault, mnfd);
      else if (mnfd > mxfd) throw new RangeError(`${who}: maximumFractionDigits (${mxfd}) is less than minimumFractionDigits (${mnfd})`);
      let mnsd; let mxsd;
      if (o.minimumSignificantDigits !== undefined || o.maximumSignificantDigits !== undefined) {
        mnsd = int(o, 'minimumSignificantDigits', 1, 21, 1, who);
        mxsd = int(o, 'maximumSignificantDigits', mnsd, 21, 21, who);
      }
      let useGrouping = o.useGrouping;
      if (useGrouping === undefined) useGrouping = notation === 'compact' ? 'min2' : 'auto';
      else if (useGrouping === true) useGrouping = 'always';
      else if (useGrouping === false || useGrouping === null || useGrouping === 0 || useGrouping === '') useGrouping = 'false';
      else if (!['always', 'auto', 'min2', 'true', 'false'].includes(String(useGrouping))) throw new RangeError(`${who}: useGrouping must be true, false, 'always', 'auto' or 'min2'; got '${String(useGrouping)}'`);
      else useGrouping = String(useGrouping) === 'true' ? 'always' : String(useGrouping);
      const signDisplay = str(o, 'signDisplay', ['auto', 'never', 'always', 'exceptZero', 'negative'], 'auto', who);
      this.#o = { style, currency, currencyDisplay, minimumIntegerDigits, minimumFractionDigits: mnfd, maximumFractionDigits: mxfd, minimumSignificantDigits: mnsd, maximumSignificantDigits: mxsd, useGrouping, notation, compactDisplay, signDisplay };
    }
    get format() {
      const f = (value) => {
        const n = typeof value === 'bigint' ? Number(value) : Number(value);
        if (Number.isNaN(n)) return 'NaN';
        if (!Number.isFinite(n)) {
          if (this.#o.style !== 'decimal') throw new RangeError(`Intl.NumberFormat: ${n} with style '${this.#o.style}' is not supported in the sandbox`);
          return (n < 0 && this.#o.signDisplay !== 'never' ? '-' : n > 0 && ['always', 'exceptZero'].includes(this.#o.signDisplay) ? '+' : '') + '∞';
        }
        return native.number(this.#locale, JSON.stringify(this.#o), n);
      };
      Object.defineProperty(this, 'format', { value: f });
      return f;
    }
    formatToParts(value) { return numberParts(this.format(value), this.#symbols(), this.#o); }
    // The locale's decimal and group separators, read off a probe the native half writes.
    #symbols() {
      const probe = native.number(this.#locale, JSON.stringify({ ...this.#o, style: 'decimal', notation: 'standard', useGrouping: 'always', minimumIntegerDigits: 1, minimumFractionDigits: 1, maximumFractionDigits: 1, minimumSignificantDigits: undefined, maximumSignificantDigits: undefined, signDisplay: 'auto' }), 1234567.5);
      const runs = probe.split(/\p{Nd}+/u).filter((x, i, all) => i > 0 && i < all.length - 1);
      return { group: runs[0], decimal: runs[runs.length - 1] };
    }
    formatRange() { throw new TypeError('Intl.NumberFormat: formatRange is not supported in the sandbox; format each end with format'); }
    resolvedOptions() {
      const o = this.#o;
      const r = { locale: this.#locale, numberingSystem: undefined, style: o.style };
      delete r.numberingSystem;
      if (o.style === 'currency') Object.assign(r, { currency: o.currency, currencyDisplay: o.currencyDisplay, currencySign: 'standard' });
      r.minimumIntegerDigits = o.minimumIntegerDigits;
      if (o.minimumSignificantDigits !== undefined) Object.assign(r, { minimumSignificantDigits: o.minimumSignificantDigits, maximumSignificantDigits: o.maximumSignificantDigits });
      else if (o.notation !== 'compact') Object.assign(r, { minimumFractionDigits: o.minimumFractionDigits, maximumFractionDigits: o.maximumFractionDigits });
      Object.assign(r, { useGrouping: o.useGrouping === 'false' ? false : o.useGrouping, notation: o.notation });
      if (o.notation === 'compact') r.compactDisplay = o.compactDisplay;
      Object.assign(r, { signDisplay: o.signDisplay, roundingMode: 'halfExpand' });
      return r;
    }
    static supportedLocalesOf(locales) { return canonicalList(locales); }
    get [Symbol.toStringTag]() { return 'Intl.NumberFormat'; }
  }

  // The parts of a formatted number, as ECMA-402 names them: digit runs are integer or
  // fraction, the separators group or decimal, signs (with their bidi marks) minusSign or
  // plusSign, % percentSign, spaces literal, and the remaining words currency or compact.
  const numberParts = (text, { group, decimal }, o) => {
    if (text === 'NaN') return [{ type: 'nan', value: text }];
    const parts = [];
    const push = (type, value) => {
      const last = parts[parts.length - 1];
      if (last && last.type === type && (type === 'literal' || type === 'currency' || type === 'compact')) last.value += value;
      else parts.push({ type, value });
    };
    const word = o.style === 'currency' ? 'currency' : o.notation === 'compact' ? 'compact' : 'literal';
    let i = 0; let seenDecimal = false;
    while (i < text.length) {
      const rest = text.slice(i);
      let m;
      if ((m = /^\p{Nd}+/u.exec(rest))) { push(seenDecimal ? 'fraction' : 'integer', m[0]); i += m[0].length; continue; }
      // A hyphen between letters belongs to a currency name (US-Dollar, États-Unis).
      if (rest[0] === '-' && word !== 'literal' && /\p{L}/u.test(text[i - 1] || '') && /^\p{L}/u.test(text.slice(i + 1))) { push(word, '-'); i += 1; continue; }
      if (rest[0] === '-' || rest[0] === '\u2212') { push('minusSign', rest[0]); i += 1; continue; }
      if (rest[0] === '+') { push('plusSign', '+'); i += 1; continue; }
      if ((m = /^[%\u066a\u061c]+/u.exec(rest)) && /[%\u066a]/u.test(m[0])) { push('percentSign', m[0]); i += m[0].length; continue; }
      if (rest[0] === '∞') { push('infinity', '∞'); i += 1; continue; }
      const between = /\p{Nd}/u.test(text[i - 1] || '') && /^\p{Nd}/u.test(text.slice(i + 1));
      if (between && !seenDecimal && rest.startsWith(decimal) && /^\p{Nd}/u.test(text.slice(i + decimal.length))) { push('decimal', decimal); seenDecimal = true; i += decimal.length; continue; }
      if (/\p{Nd}/u.test(text[i - 1] || '') && rest.startsWith(group) && /^\p{Nd}/u.test(text.slice(i + group.length))) { push('group', group); i += group.length; continue; }
      if (rest[0] === decimal && /^\p{Nd}/u.test(text.slice(i + 1)) && /\p{Nd}/u.test(text[i - 1] || '')) { push('decimal', decimal); seenDecimal = true; i += 1; continue; }
      if ((m = /^[\s\u00a0\u202f\u200e\u200f\u061c]+/u.exec(rest))) {
        // A space inside a currency or compact name ("US dollars") belongs to the name.
        const inside = parts.length && parts[parts.length - 1].type === word && word !== 'literal' && /^[^\p{Nd}\s]/u.test(rest.slice(m[0].length)) && !/^[-+%]/u.test(rest.slice(m[0].length));
        push(inside ? word : 'literal', m[0]); i += m[0].length; continue;
      }
      m = /^[^\p{Nd}\s\u00a0\u202f\u200e\u200f\u061c%\u066a+\-\u2212]+/u.exec(rest);
      const chunk = m ? m[0] : rest[0];
      push(word, chunk); i += chunk.length;
    }
    return parts;
  };

  // ---- DateTimeFormat --------------------------------------------------------------------
  // Fixed offsets only: the sandbox carries no time zone database.
  const zoneOffset = (zone, who) => {
    const z = String(zone);
    const u = z.toUpperCase();
    if (['UTC', 'ETC/UTC', 'GMT', 'ETC/GMT', 'ETC/UCT', 'UCT', 'ZULU', 'ETC/ZULU'].includes(u)) return { name: 'UTC', offset: 0 };
    let m = /^ETC\/GMT([+-])(\d{1,2})$/.exec(u);
    if (m && Number(m[2]) <= 14) return { name: `Etc/GMT${m[1]}${Number(m[2])}`, offset: (m[1] === '+' ? -60 : 60) * Number(m[2]) };
    m = /^([+-])(\d{2}):?(\d{2})$/.exec(u);
    if (m && Number(m[2]) <= 23 && Number(m[3]) <= 59) return { name: `${m[1]}${m[2]}:${m[3]}`, offset: (m[1] === '+' ? 1 : -1) * (Number(m[2]) * 60 + Number(m[3])) };
    throw new RangeError(`${who}: timeZone '${z}' is not supported in the sandbox, which has no time zone database (supported: 'UTC', 'Etc/GMT+5'-style fixed zones and offsets like '+05:30')`);
  };
  const DATE_FIELDS = ['weekday', 'year', 'month', 'day'];
  const TIME_FIELDS = ['hour', 'minute', 'second'];
  class DateTimeFormat {
    #locale; #o; #zone;
    constructor(locales, options, required = 'any', defaults = 'date') {
      const who = 'Intl.DateTimeFormat';
      const o = bag(options, who);
      localeMatcher(o, who);
      this.#locale = pick(locales);
      unsupported(o, who, [
        ['calendar', ['gregory', 'iso8601'], "the locale's default calendar is used"],
        ['numberingSystem', [], "the locale's own numbering system is used"],
        ['era', [], 'eras are not written'],
        ['timeZoneName', [], 'time zone names are not written'],
        ['dayPeriod', [], "use hour12 or hourCycle for AM/PM"],
        ['fractionalSecondDigits', [], 'seconds are whole'],
        ['formatMatcher', ['best fit', 'basic'], ICU],
      ]);
      const r = {};
      r.weekday = str(o, 'weekday', ['narrow', 'short', 'long'], undefined, who);
      r.year = str(o, 'year', ['numeric', '2-digit'], undefined, who);
      r.month = str(o, 'month', ['numeric', '2-digit', 'narrow', 'short', 'long'], undefined, who);
      r.day = str(o, 'day', ['numeric', '2-digit'], undefined, who);
      r.hour = str(o, 'hour', ['numeric', '2-digit'], undefined, who);
      r.minute = str(o, 'minute', ['numeric', '2-digit'], undefined, who);
      r.second = str(o, 'second', ['numeric', '2-digit'], undefined, who);
      r.dateStyle = str(o, 'dateStyle', ['full', 'long', 'medium', 'short'], undefined, who);
      r.timeStyle = str(o, 'timeStyle', ['full', 'long', 'medium', 'short'], undefined, who);
      if (r.timeStyle === 'full' || r.timeStyle === 'long') throw new RangeError(`${who}: timeStyle '${r.timeStyle}' names the time zone, which the sandbox does not write (supported: 'medium', 'short')`);
      const styled = r.dateStyle !== undefined || r.timeStyle !== undefined;
      for (const f of [...DATE_FIELDS, ...TIME_FIELDS]) {
        if (styled && r[f] !== undefined) throw new TypeError(`${who}: can't set option ${f} when ${r.dateStyle !== undefined ? 'dateStyle' : 'timeStyle'} is used`);
      }
      if (styled && ((required === 'date' && r.dateStyle === undefined) || (required === 'time' && r.timeStyle === undefined))) throw new TypeError(`${who}: ${required === 'date' ? 'toLocaleDateString needs dateStyle, not only timeStyle' : 'toLocaleTimeString needs timeStyle, not only dateStyle'}`);
      if (!styled) {
        let needDefaults = true;
        if ((required === 'date' || required === 'any') && DATE_FIELDS.some((f) => r[f] !== undefined)) needDefaults = false;
        if ((required === 'time' || required === 'any') && TIME_FIELDS.some((f) => r[f] !== undefined)) needDefaults = false;
        if (needDefaults && (defaults === 'date' || defaults === 'all')) { r.year = 'numeric'; r.month = 'numeric'; r.day = 'numeric'; }
        if (needDefaults && (defaults === 'time' || defaults === 'all')) { r.hour = 'numeric'; r.minute = 'numeric'; r.second = 'numeric'; }
      }
      const hour12 = o.hour12 === undefined ? undefined : Boolean(o.hour12);
      let hourCycle = str(o, 'hourCycle', ['h11', 'h12', 'h23', 'h24'], undefined, who);
      if (hour12 !== undefined) hourCycle = hour12 ? 'hour12' : 'h23';
      r.hourCycle = hourCycle;
      this.#zone = zoneOffset(o.timeZone === undefined ? 'UTC' : o.timeZone, who);
      r.offsetMinutes = this.#zone.offset;
      this.#o = r;
    }
    get format() {
      const f = (date) => {
        const ms = date === undefined ? Date.now() : Number(date);
        if (!Number.isFinite(ms)) throw new RangeError('Intl.DateTimeFormat: Invalid time value (the date is NaN or not a date)');
        return native.date(this.#locale, JSON.stringify(this.#o), ms);
      };
      Object.defineProperty(this, 'format', { value: f });
      return f;
    }
    formatToParts() { throw new TypeError('Intl.DateTimeFormat: formatToParts is not supported in the sandbox; use format'); }
    formatRange() { throw new TypeError('Intl.DateTimeFormat: formatRange is not supported in the sandbox; format each end with format'); }
    resolvedOptions() {
      const r = { locale: this.#locale, calendar: 'gregory', timeZone: this.#zone.name };
      const o = this.#o;
      if (o.hourCycle !== undefined && (o.hour !== undefined || o.timeStyle !== undefined)) Object.assign(r, o.hourCycle === 'hour12' ? { hour12: true } : { hourCycle: o.hourCycle, hour12: o.hourCycle === 'h11' || o.hourCycle === 'h12' });
      for (const k of [...DATE_FIELDS, ...TIME_FIELDS, 'dateStyle', 'timeStyle']) if (o[k] !== undefined) r[k] = o[k];
      return r;
    }
    static supportedLocalesOf(locales) { return canonicalList(locales); }
    get [Symbol.toStringTag]() { return 'Intl.DateTimeFormat'; }
  }

  // ---- Collator --------------------------------------------------------------------------
  class Collator {
    #locale; #json; #o;
    constructor(locales, options) {
      const who = 'Intl.Collator';
      const o = bag(options, who);
      localeMatcher(o, who);
      this.#locale = pick(locales);
      unsupported(o, who, [['collation', ['default'], "the locale's default collation is used"]]);
      const usage = str(o, 'usage', ['sort', 'search'], 'sort', who);
      if (usage === 'search') throw new RangeError(`${who}: usage 'search' is not supported in the sandbox (supported: 'sort')`);
      const numeric = bool(o, 'numeric', false);
      const caseFirst = str(o, 'caseFirst', ['upper', 'lower', 'false'], 'false', who);
      const sensitivity = str(o, 'sensitivity', ['base', 'accent', 'case', 'variant'], 'variant', who);
      const ignorePunctuation = bool(o, 'ignorePunctuation', false);
      this.#o = { usage, sensitivity, ignorePunctuation, collation: 'default', numeric, caseFirst };
      this.#json = JSON.stringify(this.#o);
    }
    get compare() {
      const f = (a, b) => native.compare(this.#locale, this.#json, String(a), String(b));
      Object.defineProperty(this, 'compare', { value: f });
      return f;
    }
    resolvedOptions() { return { locale: this.#locale, ...this.#o }; }
    static supportedLocalesOf(locales) { return canonicalList(locales); }
    get [Symbol.toStringTag]() { return 'Intl.Collator'; }
  }

  // ---- PluralRules -----------------------------------------------------------------------
  class PluralRules {
    #locale; #type; #min; #max;
    constructor(locales, options) {
      const who = 'Intl.PluralRules';
      const o = bag(options, who);
      localeMatcher(o, who);
      this.#locale = pick(locales);
      unsupported(o, who, [['minimumSignificantDigits', [], 'use fraction digits'], ['maximumSignificantDigits', [], 'use fraction digits'], ['roundingMode', ['halfExpand'], 'rounding is halfExpand']]);
      this.#type = str(o, 'type', ['cardinal', 'ordinal'], 'cardinal', who);
      this.#min = int(o, 'minimumFractionDigits', 0, 100, 0, who);
      this.#max = int(o, 'maximumFractionDigits', 0, 100, Math.max(this.#min, 3), who);
      if (this.#min > this.#max) throw new RangeError(`${who}: maximumFractionDigits (${this.#max}) is less than minimumFractionDigits (${this.#min})`);
    }
    select(n) {
      const v = Number(n);
      if (!Number.isFinite(v)) return 'other';
      return native.plural(this.#locale, this.#type === 'ordinal', v, this.#min, this.#max);
    }
    resolvedOptions() { return { locale: this.#locale, type: this.#type, minimumIntegerDigits: 1, minimumFractionDigits: this.#min, maximumFractionDigits: this.#max }; }
    static supportedLocalesOf(locales) { return canonicalList(locales); }
    get [Symbol.toStringTag]() { return 'Intl.PluralRules'; }
  }

  // ---- ListFormat ------------------------------------------------------------------------
  class ListFormat {
    #locale; #type; #style;
    constructor(locales, options) {
      const who = 'Intl.ListFormat';
      const o = bag(options, who);
      localeMatcher(o, who);
      this.#locale = pick(locales);
      this.#type = str(o, 'type', ['conjunction', 'disjunction', 'unit'], 'conjunction', who);
      this.#style = str(o, 'style', ['long', 'short', 'narrow'], 'long', who);
    }
    format(list) {
      const items = list === undefined ? [] : Array.from(list);
      for (const i of items) if (typeof i !== 'string') throw new TypeError(`Intl.ListFormat: every item must be a string, got ${i === null ? 'null' : typeof i}`);
      return native.list(this.#locale, this.#type, this.#style, items);
    }
    formatToParts() { throw new TypeError('Intl.ListFormat: formatToParts is not supported in the sandbox; use format'); }
    resolvedOptions() { return { locale: this.#locale, type: this.#type, style: this.#style }; }
    static supportedLocalesOf(locales) { return canonicalList(locales); }
    get [Symbol.toStringTag]() { return 'Intl.ListFormat'; }
  }

  // ---- RelativeTimeFormat ----------------------------------------------------------------
  const UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
  class RelativeTimeFormat {
    #locale; #style; #numeric;
    constructor(locales, options) {
      const who = 'Intl.RelativeTimeFormat';
      const o = bag(options, who);
      localeMatcher(o, who);
      this.#locale = pick(locales);
      unsupported(o, who, [['numberingSystem', [], "the locale's own numbering system is used"]]);
      this.#style = str(o, 'style', ['long', 'short', 'narrow'], 'long', who);
      this.#numeric = str(o, 'numeric', ['always', 'auto'], 'always', who);
    }
    format(value, unit) {
      const v = Number(value);
      if (!Number.isFinite(v)) throw new RangeError(`Intl.RelativeTimeFormat: the value must be a finite number, got ${String(value)}`);
      const u = String(unit);
      const single = u.endsWith('s') && UNITS.includes(u.slice(0, -1)) ? u.slice(0, -1) : u;
      if (!UNITS.includes(single)) throw new RangeError(`Intl.RelativeTimeFormat: invalid unit '${u}' (use ${UNITS.join(', ')}, singular or plural)`);
      return native.relative(this.#locale, this.#style, this.#numeric, v, single);
    }
    formatToParts() { throw new TypeError('Intl.RelativeTimeFormat: formatToParts is not supported in the sandbox; use format'); }
    resolvedOptions() { return { locale: this.#locale, style: this.#style, numeric: this.#numeric, numberingSystem: 'latn' }; }
    static supportedLocalesOf(locales) { return canonicalList(locales); }
    get [Symbol.toStringTag]() { return 'Intl.RelativeTimeFormat'; }
  }

  const Intl = {
    NumberFormat, DateTimeFormat, Collator, PluralRules, ListFormat, RelativeTimeFormat,
    getCanonicalLocales: (locales) => canonicalList(locales),
    supportedValuesOf() { throw new TypeError('Intl.supportedValuesOf is not supported in the sandbox'); },
  };
  Object.defineProperty(Intl, Symbol.toStringTag, { value: 'Intl' });

  // ---- the locale-sensitive methods of the built-ins -------------------------------------
  const method = (proto, name, fn) => Object.defineProperty(proto, name, { value: { [name]: fn }[name], writable: true, configurable: true, enumerable: false });
  const numberValue = Number.prototype.valueOf;
  method(Number.prototype, 'toLocaleString', function (locales, options) { return new NumberFormat(locales, options).format(numberValue.call(this)); });
  const bigintValue = BigInt.prototype.valueOf;
  method(BigInt.prototype, 'toLocaleString', function (locales, options) { return new NumberFormat(locales, options).format(bigintValue.call(this)); });
  const timeValue = Date.prototype.getTime;
  const dateMethod = (name, required, defaults) => method(Date.prototype, name, function (locales, options) {
    const t = timeValue.call(this);
    if (Number.isNaN(t)) return 'Invalid Date';
    return new DateTimeFormat(locales, options, required, defaults).format(t);
  });
  dateMethod('toLocaleString', 'any', 'all');
  dateMethod('toLocaleDateString', 'date', 'date');
  dateMethod('toLocaleTimeString', 'time', 'time');
  method(String.prototype, 'localeCompare', function (that, locales, options) {
    if (this === null || this === undefined) throw new TypeError('String.prototype.localeCompare called on null or undefined');
    return new Collator(locales, options).compare(String(this), String(that));
  });
  return { globals: { Intl } };
})
