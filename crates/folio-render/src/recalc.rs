//! Recalculating a workbook with LibreOffice: every formula is computed again and its result
//! stored in the cell, keeping the file's sheets and styles (an xlsx → xlsx conversion through
//! [`crate::office::convert`]).
//!
//! LibreOffice only recalculates an OOXML or ODF file on load when told to. The recalculating
//! conversions therefore run on a profile of their own ([`recalc_profile_dir`]) whose
//! `user/registrymodifications.xcu` sets `Calc/Formula/Load/OOXMLRecalcMode` and
//! `ODFRecalcMode` to 0 ("always recalculate"); the previews' profile keeps LibreOffice's
//! default, so a preview shows the values the file's author saw.

use std::path::{Path, PathBuf};

use folio_budget::ChildLimits;

use crate::error::{RenderError, Result};

/// The two settings, as LibreOffice's registry items.
const ITEMS: &str = r#"<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
"#;

/// A whole registrymodifications.xcu with only the two settings.
const XCU: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
"#;

/// The profile recalculating conversions use: `<cache>/folio/libreoffice-recalc-profile`.
pub fn recalc_profile_dir() -> PathBuf {
    crate::office::default_profile_dir().with_file_name("libreoffice-recalc-profile")
}

/// Makes `profile` recalculate on load: writes the two settings into its
/// `user/registrymodifications.xcu`, creating it, or adding them to what LibreOffice wrote.
pub fn prepare_profile(profile: &Path) -> Result<()> {
    let user = profile.join("user");
    std::fs::create_dir_all(&user).map_err(|e| RenderError::io(&user, e))?;
    let file = user.join("registrymodifications.xcu");
    let now = std::fs::read_to_string(&file).unwrap_or_default();
    let set = |name: &str| {
        now.split("<item ")
            .any(|item| item.contains(&format!("oor:name=\"{name}\"")) && item.contains("<value>0</value>"))
    };
    if set("OOXMLRecalcMode") && set("ODFRecalcMode") {
        return Ok(());
    }
    let kept: String = if now.contains("</oor:items>") {
        // Drop any other value of the two settings, keep the rest of the profile.
        now.split_inclusive("</item>")
            .filter(|item| {
                !item.contains("oor:name=\"OOXMLRecalcMode\"") && !item.contains("oor:name=\"ODFRecalcMode\"")
            })
            .collect::<String>()
            .replace("</oor:items>", "")
    } else {
        XCU.to_string()
    };
    let text = format!("{}\n{ITEMS}</oor:items>\n", kept.trim_end());
    std::fs::write(&file, text).map_err(|e| RenderError::io(&file, e))
}

/// `bytes` (an xlsx called `name`) with every formula recalculated by LibreOffice and its result
/// stored; the profile at `profile` is prepared first.
pub fn recalculate(name: &str, bytes: &[u8], soffice: &Path, profile: &Path, limits: &ChildLimits) -> Result<Vec<u8>> {
    prepare_profile(profile)?;
    crate::office::convert(name, bytes, soffice, profile, limits, "xlsx")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_profile_gets_both_settings_and_keeps_what_libreoffice_wrote() {
        let dir = std::env::temp_dir().join(format!("folio-recalc-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        prepare_profile(&dir).unwrap();
        let file = dir.join("user/registrymodifications.xcu");
        let first = std::fs::read_to_string(&file).unwrap();
        assert!(first.contains("OOXMLRecalcMode") && first.contains("ODFRecalcMode"), "{first}");
        // LibreOffice rewrites the file with its own items and another value of one setting.
        let theirs = format!(
            "{XCU}<item oor:path=\"/org.openoffice.Office.Common/Misc\"><prop oor:name=\"FirstRun\" oor:op=\"fuse\"><value>false</value></prop></item>\n<item oor:path=\"/org.openoffice.Office.Calc/Formula/Load\"><prop oor:name=\"OOXMLRecalcMode\" oor:op=\"fuse\"><value>1</value></prop></item>\n</oor:items>\n"
        );
        std::fs::write(&file, theirs).unwrap();
        prepare_profile(&dir).unwrap();
        let after = std::fs::read_to_string(&file).unwrap();
        assert!(after.contains("FirstRun"), "{after}");
        assert!(!after.contains("<value>1</value>"), "{after}");
        assert_eq!(after.matches("OOXMLRecalcMode").count(), 1, "{after}");
        assert!(after.trim_end().ends_with("</oor:items>"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
