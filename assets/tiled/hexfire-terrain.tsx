<?xml version="1.0" encoding="UTF-8"?>
<!-- hexfire's terrain for Tiled: made by tools/data/make_tiled_tileset.py; a tile's
     terrain and level properties are what hexfire convert reads (docs/tiled.md). -->
<tileset version="1.10" tiledversion="1.10.2" name="hexfire-terrain" tilewidth="64" tileheight="56" tilecount="40" columns="5">
 <image source="hexfire-terrain.png" width="320" height="448"/>
  <tile id="0" class="open">
   <properties>
    <property name="terrain" value="o"/>
    <property name="level" type="int" value="0"/>
   </properties>
  </tile>
  <tile id="1" class="open">
   <properties>
    <property name="terrain" value="o"/>
    <property name="level" type="int" value="1"/>
   </properties>
  </tile>
  <tile id="2" class="open">
   <properties>
    <property name="terrain" value="o"/>
    <property name="level" type="int" value="2"/>
   </properties>
  </tile>
  <tile id="3" class="open">
   <properties>
    <property name="terrain" value="o"/>
    <property name="level" type="int" value="3"/>
   </properties>
  </tile>
  <tile id="4" class="open">
   <properties>
    <property name="terrain" value="o"/>
    <property name="level" type="int" value="4"/>
   </properties>
  </tile>
  <tile id="5" class="road">
   <properties>
    <property name="terrain" value="r"/>
    <property name="level" type="int" value="0"/>
   </properties>
  </tile>
  <tile id="6" class="road">
   <properties>
    <property name="terrain" value="r"/>
    <property name="level" type="int" value="1"/>
   </properties>
  </tile>
  <tile id="7" class="road">
   <properties>
    <property name="terrain" value="r"/>
    <property name="level" type="int" value="2"/>
   </properties>
  </tile>
  <tile id="8" class="road">
   <properties>
    <property name="terrain" value="r"/>
    <property name="level" type="int" value="3"/>
   </properties>
  </tile>
  <tile id="9" class="road">
   <properties>
    <property name="terrain" value="r"/>
    <property name="level" type="int" value="4"/>
   </properties>
  </tile>
  <tile id="10" class="brush">
   <properties>
    <property name="terrain" value="br"/>
    <property name="level" type="int" value="0"/>
   </properties>
  </tile>
  <tile id="11" class="brush">
   <properties>
    <property name="terrain" value="br"/>
    <property name="level" type="int" value="1"/>
   </properties>
  </tile>
  <tile id="12" class="brush">
   <properties>
    <property name="terrain" value="br"/>
    <property name="level" type="int" value="2"/>
   </properties>
  </tile>
  <tile id="13" class="brush">
   <properties>
    <property name="terrain" value="br"/>
    <property name="level" type="int" value="3"/>
   </properties>
  </tile>
  <tile id="14" class="brush">
   <properties>
    <property name="terrain" value="br"/>
    <property name="level" type="int" value="4"/>
   </properties>
  </tile>
  <tile id="15" class="grain">
   <properties>
    <property name="terrain" value="gr"/>
    <property name="level" type="int" value="0"/>
   </properties>
  </tile>
  <tile id="16" class="grain">
   <properties>
    <property name="terrain" value="gr"/>
    <property name="level" type="int" value="1"/>
   </properties>
  </tile>
  <tile id="17" class="grain">
   <properties>
    <property name="terrain" value="gr"/>
    <property name="level" type="int" value="2"/>
   </properties>
  </tile>
  <tile id="18" class="grain">
   <properties>
    <property name="terrain" value="gr"/>
    <property name="level" type="int" value="3"/>
   </properties>
  </tile>
  <tile id="19" class="grain">
   <properties>
    <property name="terrain" value="gr"/>
    <property name="level" type="int" value="4"/>
   </properties>
  </tile>
  <tile id="20" class="orchard">
   <properties>
    <property name="terrain" value="or"/>
    <property name="level" type="int" value="0"/>
   </properties>
  </tile>
  <tile id="21" class="orchard">
   <properties>
    <property name="terrain" value="or"/>
    <property name="level" type="int" value="1"/>
   </properties>
  </tile>
  <tile id="22" class="orchard">
   <properties>
    <property name="terrain" value="or"/>
    <property name="level" type="int" value="2"/>
   </properties>
  </tile>
  <tile id="23" class="orchard">
   <properties>
    <property name="terrain" value="or"/>
    <property name="level" type="int" value="3"/>
   </properties>
  </tile>
  <tile id="24" class="orchard">
   <properties>
    <property name="terrain" value="or"/>
    <property name="level" type="int" value="4"/>
   </properties>
  </tile>
  <tile id="25" class="woods">
   <properties>
    <property name="terrain" value="w"/>
    <property name="level" type="int" value="0"/>
   </properties>
  </tile>
  <tile id="26" class="woods">
   <properties>
    <property name="terrain" value="w"/>
    <property name="level" type="int" value="1"/>
   </properties>
  </tile>
  <tile id="27" class="woods">
   <properties>
    <property name="terrain" value="w"/>
    <property name="level" type="int" value="2"/>
   </properties>
  </tile>
  <tile id="28" class="woods">
   <properties>
    <property name="terrain" value="w"/>
    <property name="level" type="int" value="3"/>
   </properties>
  </tile>
  <tile id="29" class="woods">
   <properties>
    <property name="terrain" value="w"/>
    <property name="level" type="int" value="4"/>
   </properties>
  </tile>
  <tile id="30" class="wooden_building">
   <properties>
    <property name="terrain" value="wb"/>
    <property name="level" type="int" value="0"/>
   </properties>
  </tile>
  <tile id="31" class="wooden_building">
   <properties>
    <property name="terrain" value="wb"/>
    <property name="level" type="int" value="1"/>
   </properties>
  </tile>
  <tile id="32" class="wooden_building">
   <properties>
    <property name="terrain" value="wb"/>
    <property name="level" type="int" value="2"/>
   </properties>
  </tile>
  <tile id="33" class="wooden_building">
   <properties>
    <property name="terrain" value="wb"/>
    <property name="level" type="int" value="3"/>
   </properties>
  </tile>
  <tile id="34" class="wooden_building">
   <properties>
    <property name="terrain" value="wb"/>
    <property name="level" type="int" value="4"/>
   </properties>
  </tile>
  <tile id="35" class="stone_building">
   <properties>
    <property name="terrain" value="sb"/>
    <property name="level" type="int" value="0"/>
   </properties>
  </tile>
  <tile id="36" class="stone_building">
   <properties>
    <property name="terrain" value="sb"/>
    <property name="level" type="int" value="1"/>
   </properties>
  </tile>
  <tile id="37" class="stone_building">
   <properties>
    <property name="terrain" value="sb"/>
    <property name="level" type="int" value="2"/>
   </properties>
  </tile>
  <tile id="38" class="stone_building">
   <properties>
    <property name="terrain" value="sb"/>
    <property name="level" type="int" value="3"/>
   </properties>
  </tile>
  <tile id="39" class="stone_building">
   <properties>
    <property name="terrain" value="sb"/>
    <property name="level" type="int" value="4"/>
   </properties>
  </tile>
</tileset>
