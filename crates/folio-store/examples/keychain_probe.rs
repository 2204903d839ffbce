//! Prints where Folio would take a provider's key from on this machine.
fn main() {
    let (key, notice) = folio_store::Secrets::default().get("anthropic", Some("ANTHROPIC_API_KEY"));
    println!("key found: {:?}", key.map(|(_, source)| source));
    println!("notice: {notice:?}");
}
